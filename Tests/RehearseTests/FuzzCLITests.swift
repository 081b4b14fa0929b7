import ChildProcess
import Foundation
import Testing

@Suite struct FuzzCLITests {
    func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "rehearse-fuzz-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The sweep's own failure folder, from its `failures: <path>` line.
    static func failureFolder(_ output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("failures: ") }.map { String($0.dropFirst("failures: ".count)) }
    }

    @Test func aCrashingSeedDoesNotKillTheSweepAndReplays() throws {
        let dir = temporaryDirectory()
        let fuzz = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<8", "--keep-going", "--jobs", "2", "--strategy", "random", "--report-dir", dir])
        #expect(fuzz.status == 1)
        #expect(fuzz.standardOutput.contains("FAIL seed 3: crash: worker died with signal"))
        #expect(fuzz.standardOutput.contains("FAIL seed 5: invariant: crash-test-ok"))
        #expect(fuzz.standardOutput.contains("7 seeds run, 5 passed, 2 failed"))
        let failures = try #require(Self.failureFolder(fuzz.standardOutput), "\(fuzz.standardOutput)")
        let crash = try CommandLineRunner.run(["replay", "\(failures)/crash-test-s3-random-careful.crash.json", "--report-dir", dir])
        #expect(crash.status == 0 && crash.standardOutput.contains("reproduced: crash"))
        let shrunk = try CommandLineRunner.run(["replay", "\(failures)/crash-test-s5-random-careful.shrunk.json", "--report-dir", dir])
        #expect(shrunk.status == 0 && shrunk.standardOutput.contains("reproduced: crash-test-ok at step"))
        let again = try CommandLineRunner.run(["shrink", "\(failures)/crash-test-s5-random-careful.json", "--output", "\(dir)/s.json"])
        #expect(again.status == 0 && again.standardOutput.contains("VIOLATED crash-test-ok"))
    }

    /// `rehearse fuzz <scenario>`, the first thing a newcomer types, sweeps the documented default
    /// range (0..<1000); its last shard of a thousand runs one seed.
    @Test func fuzzWithoutSeedsSweepsTheDefaultRange() throws {
        let dir = temporaryDirectory()
        let fuzz = try CommandLineRunner.run(["fuzz", "crash-test", "--shard", "999/1000", "--strategy", "random", "--report-dir", dir])
        #expect(!fuzz.standardError.contains("Missing expected argument"), "\(fuzz.standardError)")
        #expect(fuzz.standardOutput.contains("seeds=999..<1000 shard=999/1000 of 0..<1000"), "\(fuzz.standardOutput)")
        #expect(fuzz.standardOutput.contains("1 seeds run"), "\(fuzz.standardOutput)")
    }

    @Test func replayOfAnAlteredArtifactSaysWhatDiffered() throws {
        let dir = temporaryDirectory()
        let fuzz = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "5..<6", "--no-shrink", "--strategy", "random", "--report-dir", dir])
        let path = try #require(Self.failureFolder(fuzz.standardOutput)) + "/crash-test-s5-random-careful.json"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"seed\" : 5", with: "\"seed\" : 6")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let replay = try CommandLineRunner.run(["replay", path, "--report-dir", dir])
        #expect(replay.status == 1)
        #expect(replay.standardError.contains("NOT reproduced: expected crash-test-ok at step 2, got a pass"))
    }

    /// A decisions log asking for choices that do not exist is reported as a divergence (exit 1,
    /// naming the choice point), not clamped into some other schedule; a malformed log is bad input.
    @Test func replayOfOutOfRangeDecisionsSaysWhereItDiverged() throws {
        let dir = temporaryDirectory()
        let fuzz = try CommandLineRunner.run(["fuzz", "like-storm", "--variant", "unlike-nonliker-decrements", "--seeds", "1..<2", "--no-shrink",
                                              "--strategy", "random", "--report-dir", dir])
        let path = try #require(Self.failureFolder(fuzz.standardOutput)) + "/like-storm-s1-random-unlike-nonliker-decrements.json"
        var artifact = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let original = try #require(artifact["decisions"] as? [Int])
        let faithful = try CommandLineRunner.run(["replay", path, "--report-dir", dir])
        #expect(faithful.status == 0 && faithful.standardOutput.contains("reproduced:"), "\(faithful.standardError)")
        #expect(!original.isEmpty)
        artifact["decisions"] = [1_000_000] + original.dropFirst()
        try JSONSerialization.data(withJSONObject: artifact).write(to: URL(fileURLWithPath: path))
        let diverged = try CommandLineRunner.run(["replay", path, "--report-dir", dir])
        #expect(diverged.status == 1)
        #expect(diverged.standardError.contains("diverged at choice point 0: it chose 1000000, but only"), "\(diverged.standardError)")
        artifact["decisions"] = [-1]
        try JSONSerialization.data(withJSONObject: artifact).write(to: URL(fileURLWithPath: path))
        let malformed = try CommandLineRunner.run(["replay", path, "--report-dir", dir])
        #expect(malformed.status == 2 && malformed.standardError.split(separator: "\n").count == 1, "\(malformed.standardError)")
    }

    /// A writer killed with SIGKILL leaves `.<name>.tmp-<pid>-<n>`; the next write into that folder
    /// removes it when its process is gone, and leaves a live writer's file alone.
    @Test func staleTemporaryFilesOfDeadWritersAreRemoved() throws {
        let dir = temporaryDirectory()
        let gone = try ChildProcess("/bin/true", [])
        _ = gone.wait()
        let stale = "\(dir)/.sweep.json.tmp-\(gone.pid)-3", live = "\(dir)/.sweep.json.tmp-\(getpid())-4"
        let unrelated = "\(dir)/.notes.tmp-draft"
        for path in [stale, live, unrelated] { try "partial".write(toFile: path, atomically: false, encoding: .utf8) }
        let run = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<3", "--no-shrink", "--param", "crashSeed=0",
                                             "--result", "\(dir)/sweep.json", "--report-dir", dir])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live) && FileManager.default.fileExists(atPath: unrelated))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/sweep.json"))
    }

    /// A worker writing more to standard error than a pipe holds (256 KiB per seed) does not
    /// block the sweep, and its crash still names the worker's error from the end of that output.
    @Test func aChattyWorkerDoesNotBlockTheSweep() throws {
        let dir = temporaryDirectory()
        let run = try ChildProcess.run(
            CommandLineRunner.binary.path,
            ["fuzz", "crash-test", "--seeds", "1..<3", "--keep-going", "--no-shrink", "--param", "crashSeed=2", "--param", "failSeed=100",
             "--param", "noiseKilobytes=256", "--report-dir", dir],
            timeLimit: 120)
        #expect(!run.timedOut, "the sweep blocked on its workers' standard error")
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("FAIL seed 2: crash: worker died with signal"), "\(run.output)")
        #expect(run.output.contains("deliberate crash on seed 2"), "\(run.output)")
        #expect(run.output.contains("2 seeds run, 1 passed, 1 failed"), "\(run.output)")
    }

    @Test func shardsMergeIntoTheWholeSweep() throws {
        let dir = temporaryDirectory()
        var outputs: [String] = []
        for shard in 0..<2 {
            let run = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<8", "--keep-going", "--no-shrink", "--param", "crashSeed=0",
                                                 "--shard", "\(shard)/2", "--result", "\(dir)/shard\(shard).json", "--report-dir", dir])
            #expect(run.status == (shard == 1 ? 1 : 0), "seed 5 lies in shard 1 (4..<8)")
            outputs.append("\(dir)/shard\(shard).json")
        }
        let merged = try CommandLineRunner.run(["merge"] + outputs + ["--output", "\(dir)/merged.json"])
        #expect(merged.status == 1)
        #expect(merged.standardOutput.contains("merged 2 shard(s) over 1..<8: 7 seeds, 6 passed, 1 failed"))
        let overlap = try CommandLineRunner.run(["merge", outputs[0], outputs[0]])
        #expect(overlap.status == 2 && overlap.standardError.contains("overlaps"))
    }

    @Test func indexedJobEnvironmentPicksTheShard() throws {
        let dir = temporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["JOB_COMPLETION_INDEX"] = "1"
        environment["JOB_COMPLETIONS"] = "3"
        let run = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "0..<9", "--param", "crashSeed=100", "--param", "failSeed=100",
                                             "--shard-from-env", "--report-dir", dir], environment: environment)
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("seeds=3..<6 shard=1/3 of 0..<9"))
        environment["JOB_COMPLETION_INDEX"] = nil
        let missing = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "0..<9", "--shard-from-env"], environment: environment)
        #expect(missing.status == 2 && missing.standardError.contains("JOB_COMPLETION_INDEX"))
        let bad = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "0..<9", "--shard", "3/2"])
        #expect(bad.status == 2 && bad.standardError.contains("'3/2' is invalid for '--shard"))
    }

    @Test func zooFindsAndShrinksABug() throws {
        let zoo = try CommandLineRunner.run(["zoo", "--bug", "unlike-nonliker-decrements", "--seeds", "10", "--shrink-runs", "30"])
        #expect(zoo.status == 0)
        #expect(zoo.standardOutput.contains("found 1/1"))
        let list = try CommandLineRunner.run(["list"])
        #expect(!list.standardOutput.contains("crash-test"))
    }
}
