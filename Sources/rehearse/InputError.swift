import ArgumentParser

/// Bad input detected after parsing: prints one line naming the input and exits 2.
enum InputError {
    static func fail(_ message: String) -> ExitCode {
        FileHandleOutput.standardError("error: \(message)")
        return ExitCode(2)
    }
}
