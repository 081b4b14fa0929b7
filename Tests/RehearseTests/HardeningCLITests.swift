import Foundation
import Testing

/// Outputs are checked before work starts, inputs are bounded, and a sweep says what it does to
/// files it did not create.
@Suite struct HardeningCLITests {
    func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "rehearse-hardening-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A report folder that cannot exist is refused before the load runs (not after it).
    @Test(arguments: ["/etc/passwd/reports", "/proc/rehearse-reports", String(repeating: "r", count: 300)])
    func anUnwritableReportFolderIsRefusedBeforeTheLoad(folder: String) throws {
        let run = try CommandLineRunner.run(["load", "auction-race", "--rate", "50/s", "--duration", "3s", "--report-dir", folder])
        #expect(run.status == 2 && run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        #expect(run.standardError.contains("--report-dir"))
        #expect(!run.standardOutput.contains("iterations"), "refused before any load ran")
    }

    @Test func anOversizedArtifactIsRefusedWithoutParsing() throws {
        let dir = temporaryDirectory()
        let path = dir + "/huge.json"
        let handle = try #require(FileHandle(forWritingAtPath: { FileManager.default.createFile(atPath: path, contents: nil); return path }()))
        try handle.truncate(atOffset: 40 << 20)
        try handle.close()
        let run = try CommandLineRunner.run(["replay", path])
        #expect(run.status == 2 && run.standardError.contains("maxArtifactBytes"), "\(run.standardError)")
    }

    @Test func aSweepSaysWhenItReplacesAResultAndNamesNoFailureFolderWhenNothingFailed() throws {
        let dir = temporaryDirectory()
        let first = try CommandLineRunner.run(["fuzz", "seat-contention", "--seeds", "1..<3", "--report-dir", dir])
        #expect(first.status == 0 && !first.standardOutput.contains("failures:") && !first.standardOutput.contains("replacing"), "\(first.standardOutput)")
        let second = try CommandLineRunner.run(["fuzz", "seat-contention", "--seeds", "1..<3", "--report-dir", dir])
        #expect(second.standardOutput.contains("replacing \(dir)/seat-contention/sweep.json"), "\(second.standardOutput)")
    }

    @Test func runsWithDifferentParametersWriteDifferentFolders() throws {
        let dir = temporaryDirectory()
        let a = try CommandLineRunner.run(["run", "seat-contention", "--param", "users=4", "--report-dir", dir, "--quiet"])
        let b = try CommandLineRunner.run(["run", "seat-contention", "--param", "users=5", "--report-dir", dir, "--quiet"])
        #expect(a.status == 0 && b.status == 0)
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir + "/seat-contention")
        #expect(folders.count == 2, "\(folders)")
    }
}
