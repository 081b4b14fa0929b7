import ChildProcess
import Foundation
import RehearsalTestSupport
import Testing

/// Sweeps that lose nothing: a stop at the first failure whatever `--jobs`, a result
/// listing only the seeds that ran, `--resume` after a stop or a kill, one failure folder per
/// sweep, merge refusing inconsistent shards, and outputs that never replace device nodes.
@Suite(.ciOnly, .tags(.subprocess)) struct SweepHardeningTests {
    func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "rehearse-sweep-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func json(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Pinned: `fuzz --jobs 2` without --keep-going ran on past the first failure (152 seeds, 65
    /// failures on like-storm 1..<400) and recorded the whole range as covered.
    @Test func jobsTwoStopsAtTheFirstFailureAndRecordsOnlyWhatRan() throws {
        let dir = temporaryDirectory()
        let sweep = dir + "/sweep.json"
        let fuzz = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<600", "--param", "crashSeed=100000", "--jobs", "2",
                                              "--no-shrink", "--report-dir", dir, "--result", sweep])
        #expect(fuzz.status == 1)
        let result = try json(sweep)
        let run = try #require(result["seedsRun"] as? Int)
        // Seed 5 fails; the other lane may have finished seeds past it before the failure was
        // seen (lanes run side by side; on a loaded machine one worker may start much later),
        // but nothing runs on after it: before the fix the whole range ran.
        #expect(run >= 1 && run < 599, "stopped at seed 5: \(fuzz.standardOutput)")
        #expect((result["failures"] as? [Any])?.count == 1)
        let ranges = try #require(result["ranges"] as? [[String: Int]])
        #expect(ranges.reduce(0) { $0 + $1["high"]! - $1["low"]! } == run, "ranges cover exactly the seeds run: \(ranges)")
        #expect(ranges.contains { $0["low"]! <= 5 && 5 < $0["high"]! }, "\(ranges)")
        #expect(fuzz.standardOutput.contains("stopped after \(run) of 599 seeds"))

        // Different flags are refused; the same flags continue where it stopped.
        let other = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<600", "--param", "crashSeed=100000", "--strategy", "fifo",
                                               "--resume", "--report-dir", dir, "--result", sweep])
        #expect(other.status == 2 && other.standardError.contains("strategy portfolio, not fifo"), "\(other.standardError)")
        let resumed = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<600", "--param", "crashSeed=100000", "--jobs", "2",
                                                 "--no-shrink", "--keep-going", "--resume", "--report-dir", dir, "--result", sweep])
        #expect(resumed.status == 1)
        #expect(resumed.standardOutput.contains("resuming: \(run) done, \(599 - run) to run"), "\(resumed.standardOutput)")
        #expect(resumed.standardOutput.contains("599 seeds run, 598 passed, 1 failed"), "\(resumed.standardOutput)")
        let merged = try CommandLineRunner.run(["merge", sweep, "--output", dir + "/merged.json"])
        #expect(merged.standardOutput.contains("over 1..<600: 599 seeds"), "\(merged.standardOutput)")
    }

    /// A sweep killed midway leaves a result file (written every 100 seeds or 5 s) that resumes.
    /// The kill comes once 100 seeds are recorded; a machine fast enough to finish the range first
    /// gets a range ten times longer, so the kill always lands mid-sweep.
    @Test func aKilledSweepResumes() throws {
        for count in [3_000, 30_000, 300_000] {
            let dir = temporaryDirectory()
            let sweep = dir + "/sweep.json"
            let arguments = ["fuzz", "crash-test", "--seeds", "0..<\(count)", "--param", "crashSeed=1000000", "--param", "failSeed=1000000",
                             "--in-process", "--determinism-every", "0", "--quiet", "--report-dir", dir, "--result", sweep]
            let process = try ChildProcess(CommandLineRunner.binary.path, arguments, standardOutput: .discard, standardError: .discard)
            // Polled until 100 seeds are recorded; the 5-minute deadline only ends a sweep that
            // never records (a loaded machine can start a debug binary seconds late).
            var recorded = 0
            let deadline = ContinuousClock.now + .seconds(300)
            while recorded < 100 && ContinuousClock.now < deadline {
                usleep(20_000)
                recorded = (try? json(sweep))?["seedsRun"] as? Int ?? 0
            }
            process.kill()
            _ = process.wait()
            #expect(recorded >= 100)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }
            let killedAt = try #require(json(sweep)["seedsRun"] as? Int)
            guard killedAt < count else { continue }  // finished before the kill: a longer range
            let resumed = try CommandLineRunner.run(arguments + ["--resume"])
            #expect(resumed.status == 0, "\(resumed.standardOutput)\(resumed.standardError)")
            #expect(resumed.standardOutput.contains("resuming: \(killedAt) done"))
            #expect(resumed.standardOutput.contains("\(count) seeds run, \(count) passed"))
            // A killed write leaves at most its own temporary file, named so it never collides.
            #expect(leftovers.count <= 1, "\(leftovers)")
            return
        }
        Issue.record("every range finished before the kill")
    }

    /// Two sweeps into one report folder keep their failure artifacts apart.
    @Test func eachSweepHasItsOwnFailureFolder() throws {
        let dir = temporaryDirectory()
        var folders: [String] = []
        for _ in 0..<2 {
            let fuzz = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "5..<6", "--no-shrink", "--report-dir", dir])
            folders.append(try #require(FuzzCLITests.failureFolder(fuzz.standardOutput)))
        }
        #expect(folders[0] != folders[1])
        for folder in folders { #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["crash-test-s5-random-careful.json"]) }
    }

    /// Pinned: merge accepted negative counts, inverted ranges and unknown schema versions, and
    /// trapped on a duplicated latency key.
    @Test func mergeRejectsInconsistentShardsNamingTheFile() throws {
        let dir = temporaryDirectory()
        let sweep = dir + "/sweep.json"
        _ = try CommandLineRunner.run(["fuzz", "seat-contention", "--seeds", "1..<3", "--no-shrink", "--report-dir", dir, "--result", sweep])
        let good = try json(sweep)
        let latency = try #require(good["latency"] as? [Any])
        let cases: [(String, Any, String)] = [
            ("seedsRun", -5, "must not be negative"), ("ranges", [["low": 9, "high": 1]], "inverted"),
            ("schemaVersion", 99, "schemaVersion 99 is not 3"), ("latency", latency + latency, "more than one latency entry"),
        ]
        for (field, value, message) in cases {
            var broken = good
            broken[field] = value
            let path = dir + "/broken-\(field).json"
            try JSONSerialization.data(withJSONObject: broken).write(to: URL(fileURLWithPath: path))
            let merge = try CommandLineRunner.run(["merge", sweep, path, "--output", dir + "/merged.json"])
            #expect(merge.status == 2, "\(field): \(merge.standardError)")
            #expect(merge.standardError.contains(path) && merge.standardError.contains(message), "\(field): \(merge.standardError)")
            #expect(merge.standardError.split(separator: "\n").count == 1)
        }
    }

    /// Pinned: run as root, `--output /dev/null` replaced the device node with a regular file.
    @Test func outputsRefuseDeviceNodesDirectoriesAndSymlinks() throws {
        let dir = temporaryDirectory()
        let sweep = dir + "/sweep.json"
        _ = try CommandLineRunner.run(["fuzz", "crash-test", "--seeds", "1..<3", "--report-dir", dir, "--result", sweep])
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: dir + "/target.json")
        mkfifo(dir + "/a-fifo", 0o644)
        let device = privateNullDevice(in: dir)
        for output in [dir, dir + "/link.json", dir + "/a-fifo"] + (device.map { [$0] } ?? []) {
            let merge = try CommandLineRunner.run(["merge", sweep, "--output", output])
            #expect(merge.status == 2 && merge.standardError.contains("refusing to replace it"), "\(output): \(merge.standardError)")
        }
        if let device {
            var status = stat()
            #expect(lstat(device, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "the device node is still a device")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/target.json"))
        let empty = try CommandLineRunner.run(["run", "crash-test", "--param", "crashSeed=100", "--report-dir", ""])
        #expect(empty.status == 2 && empty.standardError.contains("--report-dir is empty"))
    }

    /// Two runs writing the same report folder at once both succeed (unique temporary names).
    @Test func twoRunsIntoOneFolderDoNotCollide() throws {
        let dir = temporaryDirectory()
        let statuses = Mutex2()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let run = try? CommandLineRunner.run(["run", "seat-contention", "--seed", "1", "--quiet", "--report-dir", dir])
            statuses.append(run?.status ?? -1)
        }
        #expect(statuses.values == [0, 0])
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir)
        #expect(!files.contains { $0.contains(".tmp") }, "\(files)")
    }
}

/// A null character device of the test's own in `folder` (root only; nil otherwise), so a
/// regression that replaces device nodes never destroys the machine's /dev/null.
func privateNullDevice(in folder: String) -> String? {
    let path = folder + "/null-device"
    return mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3) /* makedev(1, 3), a macro Swift cannot see */) == 0 ? path : nil
}

/// A locked list of exit statuses.
final class Mutex2: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int32] = []
    func append(_ value: Int32) { lock.withLock { list.append(value) } }
    var values: [Int32] { lock.withLock { list } }
}
