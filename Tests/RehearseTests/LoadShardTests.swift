import Foundation
import RehearsalTestSupport
import Testing

/// `rehearse load … --shard i/n` and `rehearse merge` of their reports: the shards' union is the
/// whole arrival schedule (same iterations as one machine's run at the same total rate), the merged
/// histograms and thresholds are judged once, and a set that is not one run's every share is
/// refused with one line. Virtual time: the same numbers on every run.
@Suite(.serialized, .tags(.subprocess)) struct LoadShardTests {
    static let load = ["load", "seat-contention", "--virtual", "--rate", "40/s", "--duration", "3s", "--quiet"]

    @Test func threeShardsMergeIntoTheWholeRun() throws {
        let folder = try LoadCommandTests.freshFolder()
        let whole = try CommandLineRunner.run(Self.load + ["--report-dir", folder.path])
        #expect(whole.status == 0, "\(whole.standardOutput) \(whole.standardError)")
        var shards: [String] = []
        for index in 0..<3 {
            let shard = try CommandLineRunner.run(Self.load + ["--shard", "\(index)/3", "--threshold", "reserveSeat.p99<1h", "--report-dir", folder.path])
            #expect(shard.status == 0, "\(shard.standardOutput) \(shard.standardError)")
            shards.append(folder.appendingPathComponent("seat-contention/seat-contention-load-virtual-constant-arrival-rate-40ps-shard-\(index)-of-3/report.json").path)
        }
        let merge = try CommandLineRunner.run(["merge"] + shards.reversed() + ["--report-dir", folder.path])
        #expect(merge.status == 0, "\(merge.standardOutput) \(merge.standardError)")
        #expect(merge.standardOutput.contains("threshold reserveSeat.p99<1h over the merged shards: met"))
        let single = try LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-virtual-constant-arrival-rate-40ps")
        let merged = try LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-virtual-constant-arrival-rate-40ps-merged")
        let one = try #require(single["load"] as? [String: Any]), all = try #require(merged["load"] as? [String: Any])
        // Every arrival of the schedule ran once, in exactly one shard.
        #expect(all["iterationsStarted"] as? Int == one["iterationsStarted"] as? Int && one["iterationsStarted"] as? Int == 120)
        #expect(all["mergedShards"] as? Int == 3 && all["shard"] == nil)
        func count(_ report: [String: Any], _ operation: String) -> Int {
            (report["latency"] as? [[String: Any]] ?? []).first { $0["operation"] as? String == operation }?["count"] as? Int ?? -1
        }
        #expect(count(merged, "reserveSeat") == 120)
        let shardCounts = try (0..<3).map { index in
            count(try LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-virtual-constant-arrival-rate-40ps-shard-\(index)-of-3"), "reserveSeat")
        }
        #expect(shardCounts == [40, 40, 40])
        #expect(count(merged, "releaseSeat") == shardCounts.indices.map { index in
            (try? LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-virtual-constant-arrival-rate-40ps-shard-\(index)-of-3")).map { count($0, "releaseSeat") } ?? 0
        }.reduce(0, +))
        // A missed threshold over the merged numbers fails the merge, with the report written.
        let strict = try CommandLineRunner.run(["merge"] + shards + ["--threshold", "reserveSeat.p50<1ns", "--report-dir", folder.path])
        #expect(strict.status == 1, "\(strict.standardOutput)")
        #expect(strict.standardOutput.contains("threshold reserveSeat.p50<1ns missed over the merged shards"))
    }

    @Test func aSetThatIsNotOneRunsSharesIsOneLine() throws {
        let folder = try LoadCommandTests.freshFolder()
        var shards: [String] = []
        for index in 0..<2 {
            _ = try CommandLineRunner.run(Self.load + ["--shard", "\(index)/2", "--report-dir", folder.path])
            shards.append(folder.appendingPathComponent("seat-contention/seat-contention-load-virtual-constant-arrival-rate-40ps-shard-\(index)-of-2/report.json").path)
        }
        _ = try CommandLineRunner.run(Self.load + ["--report-dir", folder.path])
        let whole = folder.appendingPathComponent("seat-contention/seat-contention-load-virtual-constant-arrival-rate-40ps/report.json").path
        for (arguments, expected) in [
            ([shards[0]], "shards missing: 1/2"),
            ([shards[0], shards[0], shards[1]], "shard 0/2 is given twice"),
            ([shards[0], whole], "is not a shard's load report"),
            ([whole], "is not a shard (run it with --shard i/n)"),
        ] {
            let result = try CommandLineRunner.run(["merge"] + arguments + ["--report-dir", folder.path])
            #expect(result.status == 2, "\(arguments): \(result.standardOutput) \(result.standardError)")
            #expect(result.standardError.contains(expected), "\(result.standardError)")
        }
    }

    @Test func aSlurmArrayTaskIsItsShard() throws {
        let folder = try LoadCommandTests.freshFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_ARRAY_TASK_ID"] = "3"
        environment["SLURM_ARRAY_TASK_MIN"] = "1"
        environment["SLURM_ARRAY_TASK_COUNT"] = "4"
        let result = try CommandLineRunner.run(Self.load + ["--shard-from-env", "--report-dir", folder.path], environment: environment)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let report = try LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-virtual-constant-arrival-rate-40ps-shard-2-of-4")
        #expect((report["load"] as? [String: Any])?["shard"] as? String == "2/4")
    }
}
