import Foundation

/// Writes lines to standard error / standard output.
enum FileHandleOutput {
    static func standardOutput(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress bars only then).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
