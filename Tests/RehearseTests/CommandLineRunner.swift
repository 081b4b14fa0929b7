import Foundation

/// Reads a pipe to its end, retrying on EINTR.
func readAll(_ descriptor: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 { data.append(contentsOf: buffer[0..<count]); continue }
        if count < 0 && errno == EINTR { continue }
        return data
    }
}

/// Bytes handed from a reader thread (written once before a semaphore signal, read after it).
final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// Runs the built `rehearse` binary (next to the test bundle) and captures its exit code and output.
struct CommandLineRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("rehearse")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/rehearse")
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try launchSerially(process)
        // Both pipes at once (a child filling one never blocks), with a read loop that retries
        // EINTR: Foundation's readDataToEndOfFile traps on it when other children exit meanwhile.
        let errBox = DataBox()
        let errDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errBox.data = readAll(err.fileHandleForReading.fileDescriptor)
            errDone.signal()
        }
        let outData = readAll(out.fileHandleForReading.fileDescriptor)
        errDone.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }
}
