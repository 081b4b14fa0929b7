import Foundation
import Testing

/// `virtual-time-probe` is linked WITHOUT `-Xlinker --export-dynamic` (Package.swift; a test
/// bundle cannot be: SwiftPM links every test target into one binary). Its clock interposer is
/// invisible to the runtime's libraries, so its simulation must refuse to start, naming the fix.
@Suite struct VirtualTimeRefusalTests {
    @Test func aSimulationRefusesToStartAndNamesTheLinkerSetting() throws {
        let process = Process()
        process.executableURL = try Self.probe()
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output.contains("virtual time not in effect"))
        #expect(!output.contains("a simulation ran"))
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(error.contains("virtual time is not in effect"))
        #expect(error.contains(#"linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]"#))
    }

    /// The probe binary next to the test bundle.
    static func probe() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("virtual-time-probe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }
}
