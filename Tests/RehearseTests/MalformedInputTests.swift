import ChildProcess
import Foundation
import RehearsalTestSupport
import Testing

/// Generated malformed invocations of every subcommand (bad, huge, negative and empty numbers,
/// odd encodings, missing files, directories, FIFOs, device nodes and symlinks as outputs,
/// corrupted, truncated and wrong-version JSON artifacts, reports and sweep files): each must
/// exit 2 with exactly one line on standard error, within `timeLimit`.
///
/// `REHEARSE_MALFORMED_CASES=N` generates at least N cases (more truncations and invalid
/// bytes); `REHEARSE_BINARY` runs another build (e.g. a release binary, or an older one to
/// compare); `REHEARSE_MALFORMED_SUMMARY=path` writes the tally and every bad case there.
@Suite(.serialized) struct MalformedInputTests {
    static let timeLimit: TimeInterval = 30

    @Test(.ciOnly, .tags(.subprocess)) func everyMalformedInvocationExitsTwoWithOneLine() throws {
        let environment = ProcessInfo.processInfo.environment
        let minimum = Int(environment["REHEARSE_MALFORMED_CASES"] ?? "") ?? 1_000
        let binary = environment["REHEARSE_BINARY"].map { URL(fileURLWithPath: $0) } ?? CommandLineRunner.binary
        let fixtures = try MalformedFixtures(binary: binary)
        let cases = fixtures.cases(minimum: minimum)
        #expect(cases.count >= minimum)
        let results = MalformedRunner(binary: binary, folder: fixtures.root, timeLimit: Self.timeLimit).run(cases)
        var tally: [String: Int] = [:]
        var bad: [String] = []
        for (arguments, outcome) in zip(cases, results) {
            tally[outcome.kind, default: 0] += 1
            if outcome.kind != "ok" {
                let detail = outcome.detail.replacingOccurrences(of: "\n", with: "⏎")
                bad.append("\(outcome.kind) :: \(arguments.map { "'\($0)'" }.joined(separator: " ")) :: \(detail)")
            }
        }
        let summary = "\(cases.count) cases: " + tally.keys.sorted().map { "\($0)=\(tally[$0]!)" }.joined(separator: " ")
        print(summary)
        if let path = environment["REHEARSE_MALFORMED_SUMMARY"] {
            try (([summary] + bad).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(bad.isEmpty, "\(summary)\n\(bad.prefix(40).joined(separator: "\n"))")
    }
}

/// Runs cases as child processes, a few at a time, each killed after the time limit.
struct MalformedRunner {
    struct Outcome { var kind: String; var detail: String }
    var binary: URL
    var folder: String
    var timeLimit: TimeInterval

    func run(_ cases: [[String]]) -> [Outcome] {
        let results = ResultBox(count: cases.count)
        let next = ResultBox(count: 1)
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            while let index = next.take(below: cases.count) {
                results.set(index, Self.runOne(cases[index], binary: binary, folder: folder, timeLimit: timeLimit))
            }
        }
        return results.outcomes
    }

    static func runOne(_ arguments: [String], binary: URL, folder: String, timeLimit: TimeInterval) -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        environment["REHEARSAL_COMMIT"] = "malformed-input-test"
        environment["JOB_COMPLETION_INDEX"] = nil
        environment["JOB_COMPLETIONS"] = nil
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run(binary.path, arguments, environment: environment, directory: folder, standardOutput: .discard, timeLimit: timeLimit)
        } catch {
            return Outcome(kind: "launch-failed", detail: "\(error)")
        }
        if run.timedOut { return Outcome(kind: "hang", detail: "> \(Int(timeLimit)) s") }
        let text = run.error
        if let signal = run.signal { return Outcome(kind: "crash", detail: "signal \(signal): \(text.prefix(160))") }
        let status = run.status
        guard status == 2 else { return Outcome(kind: "exit\(status)", detail: String(text.prefix(160))) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[1].isEmpty, !lines[0].isEmpty else {
            return Outcome(kind: "not-one-line", detail: String(text.prefix(200)).replacingOccurrences(of: "\n", with: "⏎"))
        }
        return Outcome(kind: "ok", detail: "")
    }
}

/// Thread-safe slots for the runner.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [MalformedRunner.Outcome?]
    private var counter = 0
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ outcome: MalformedRunner.Outcome) { lock.withLock { slots[index] = outcome } }
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard counter < limit else { return nil }
            counter += 1
            return counter - 1
        }
    }
    var outcomes: [MalformedRunner.Outcome] { lock.withLock { slots.map { $0 ?? .init(kind: "missing", detail: "") } } }
}

/// The files the cases point at: valid artifacts made by the binary, then broken copies of them.
struct MalformedFixtures {
    let root: String
    let report: String, artifact: String, sweep: String
    /// A null device of the test's own (the FIFO when not root: mknod needs root).
    let nullDevice: String
    /// Paths that are not regular files or do not exist.
    let oddPaths: [String]
    /// Broken JSON files (each unreadable as a report, artifact or sweep result).
    var brokenFiles: [String] = []
    private var bases: [(name: String, data: Data)] = []

    init(binary: URL) throws {
        root = NSTemporaryDirectory() + "rehearse-malformed-\(getpid())-\(UInt64(Date().timeIntervalSince1970 * 1000))"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/a-directory", withIntermediateDirectories: true)
        mkfifo(root + "/a-fifo", 0o644)
        try manager.createSymbolicLink(atPath: root + "/a-symlink.json", withDestinationPath: root + "/symlink-target.json")
        try manager.createSymbolicLink(atPath: root + "/a-dangling-link.json", withDestinationPath: root + "/nowhere/x.json")
        // Outputs point at a device node of the test's own (root only), never /dev/null: a
        // regression that replaces device nodes must not destroy the machine's.
        let device = root + "/null-device"
        nullDevice = mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3) /* makedev(1, 3), a macro Swift cannot see */) == 0 ? device : root + "/a-fifo"
        oddPaths = [root + "/no-such-file.json", root + "/a-directory", root + "/a-fifo", nullDevice, root + "/a-symlink.json",
                    root + "/a-dangling-link.json", "", " ", root + "/no/such/dir/file.json", "/proc/self/status"]
        let reports = root + "/made"
        _ = MalformedRunner.runOne(["run", "seat-contention", "--seed", "1", "--variant", "seat-random-id", "--quiet", "--report-dir", reports],
                                   binary: binary, folder: root, timeLimit: 120)
        report = reports + "/seat-contention/seat-contention-s1-random-seat-random-id/report.json"
        sweep = root + "/sweep.json"
        _ = MalformedRunner.runOne(["fuzz", "crash-test", "--seeds", "5..<6", "--no-shrink", "--in-process", "--determinism-every", "0",
                                    "--report-dir", reports, "--result", sweep], binary: binary, folder: root, timeLimit: 120)
        let failures = try manager.subpathsOfDirectory(atPath: reports + "/crash-test/failures").filter { $0.hasSuffix(".json") }.sorted()
        artifact = reports + "/crash-test/failures/" + (failures.first ?? "missing.json")
        for (name, path) in [("report", report), ("artifact", artifact), ("sweep", sweep)] {
            bases.append((name, try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        try writeBroken()
    }

    private mutating func add(_ name: String, _ data: Data) throws {
        let path = "\(root)/broken-\(brokenFiles.count)-\(name).json"
        try data.write(to: URL(fileURLWithPath: path))
        brokenFiles.append(path)
    }

    private static func json(_ object: Any) -> Data { (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data() }

    /// Fields each kind cannot do without (the others are optional).
    static let required: [String: [String]] = [
        "artifact": ["kind", "scenario", "seed", "strategy", "parameters", "decisions", "message", "build", "story"],
        "sweep": ["scenario", "strategy", "parameters", "swarm", "ranges", "seedsRun", "seedsPassed", "failures", "determinismChecked",
                  "goals", "reached", "latency", "build"],
        "report": ["scenario", "seed", "strategy", "parameters", "traceHash", "steps", "checks", "latency", "build"],
    ]

    private mutating func writeBroken() throws {
        try add("empty", Data())
        try add("space", Data(" \n".utf8))
        try add("null", Data("null".utf8))
        try add("array", Data("[]".utf8))
        try add("number", Data("42".utf8))
        try add("object", Data("{}".utf8))
        try add("bom", Data([0xEF, 0xBB, 0xBF]) + Data("{\"schemaVersion\":1}".utf8))
        try add("utf16", Data("{\"schemaVersion\":1}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
        try add("nul", Data([0, 0, 0, 0]))
        try add("garbage", Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }))
        try add("deep", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        for (name, data) in bases {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            for cut in [1, 2, data.count / 4, data.count / 2, data.count * 3 / 4, data.count - 3] where cut > 0 && cut < data.count {
                try add("\(name)-cut\(cut)", data.prefix(cut))
            }
            for version in [0, 7, 99, -1, Int.max] as [Any] + ["1", 1.5, NSNull()] as [Any] {
                var changed = object; changed["schemaVersion"] = version
                try add("\(name)-version", Self.json(changed))
            }
            var unversioned = object; unversioned["schemaVersion"] = nil
            try add("\(name)-noversion", Self.json(unversioned))
            for field in Self.required[name] ?? [] where object[field] != nil {
                var changed = object; changed[field] = nil
                try add("\(name)-no-\(field)", Self.json(changed))
            }
            for (field, value) in object where field != "schemaVersion" {
                var changed = object
                switch value {
                case is String: changed[field] = 12345
                case is NSNumber: changed[field] = "not a number"
                case is [Any]: changed[field] = "not a list"
                case is [String: Any]: changed[field] = [1, 2]
                default: continue
                }
                try add("\(name)-type-\(field)", Self.json(changed))
            }
            if name == "artifact" {
                for (field, value) in [("seed", -1), ("seed", 0) as (String, Any), ("strategy", "pct:x"), ("scenario", "no-such"),
                                       ("variant", "no-such"), ("parameters", ["failSeed": -5]), ("parameters", ["nope": 1]),
                                       ("kind", 7), ("swarm", ["rates": ["drops": 5.0]]), ("swarm", ["rates": ["nope": 0.1]]),
                                       ("swarm", ["rates": ["drops": -1]]), ("steps", -4), ("seed", 1.5)] as [(String, Any)] {
                    var changed = object; changed[field] = value
                    if field == "seed", (value as? Int) == 0 { changed["seed"] = Double(UInt64.max) * 4 }
                    try add("artifact-bad-\(field)", Self.json(changed))
                }
            }
            if name == "sweep" {
                let latency = (object["latency"] as? [[String: Any]]) ?? []
                let fakeLatency: [String: Any] = latency.first ?? [:]
                let cases: [(String, Any)] = [
                    ("seedsRun", -5), ("seedsPassed", -1), ("seedsPassed", 99), ("seedsRun", 1_000),
                    ("ranges", [["low": 9, "high": 1]]), ("ranges", [["low": 1, "high": 9], ["low": 4, "high": 12]]),
                    ("ranges", [["low": 0, "high": UInt64.max]]), ("ranges", [] as [Any]),
                    ("latency", [fakeLatency, fakeLatency]), ("failures", [] as [Any]), ("determinismChecked", [123_456_789]),
                ]
                for (field, value) in cases {
                    var changed = object; changed[field] = value
                    try add("sweep-bad-\(field)", Self.json(changed))
                }
                // Histograms are HdrHistogram's compressed encoding: corrupt the string.
                if var entry = latency.first, let histogram = entry["histogram"] as? String {
                    let bytes = [UInt8](Data(base64Encoded: histogram) ?? Data())
                    func corrupted(_ change: (inout [UInt8]) -> Void) -> String { var copy = bytes; change(&copy); return Data(copy).base64EncodedString() }
                    let variants: [(String, String)] = [
                        ("not-base64", "HIST*not base64*"), ("empty", ""), ("cookie", corrupted { $0[3] = 0x13 }),
                        ("length", corrupted { $0[7] &+= 1 }), ("truncated", corrupted { $0.removeLast(5) }),
                        ("zlib", corrupted { $0[$0.count / 2 + 4] ^= 0xFF }), ("trailing", corrupted { $0 += [0, 0] }),
                    ]
                    for (name, value) in variants {
                        entry["histogram"] = value
                        var changed = object; changed["latency"] = [entry]
                        try add("sweep-histogram-\(name)", Self.json(changed))
                    }
                }
            }
        }
    }

    /// More broken files: truncations at seeded positions and an invalid UTF-8 byte inserted.
    mutating func extend(to count: Int) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state >> 33 }
        while brokenFiles.count < count {
            let (name, data) = bases[Int(next() % UInt64(bases.count))]
            guard let end = data.lastIndex(of: UInt8(ascii: "}")) else { break }
            if next() % 2 == 0 {
                try add("\(name)-rcut", data.prefix(Int(next() % UInt64(end))))
            } else {
                var changed = data
                changed.insert(0xFF, at: Int(next() % UInt64(data.count)))
                try add("\(name)-ff", changed)
            }
        }
    }

    /// The invocations: at least `minimum` of them.
    func cases(minimum: Int) -> [[String]] {
        var fixtures = self
        var cases = fixtures.baseCases()
        while cases.count < minimum {
            // Each broken file is used by about seven invocations.
            try? fixtures.extend(to: fixtures.brokenFiles.count + (minimum - cases.count) / 7 + 1)
            cases = fixtures.baseCases()
        }
        return cases
    }

    private func baseCases() -> [[String]] {
        var cases: [[String]] = []
        let out = root + "/out"
        let numbers = ["", "-1", "abc", "1e300", "1.5", "0x10", "9223372036854775808", "18446744073709551616",
                       "99999999999999999999999", " ", "1 2", "NaN", "－1", "٣", "+-3", "1_000"]
        let huge = ["9223372036854775807", "5000000000", "-9223372036854775808", "100000000"]
        // A seed takes any UInt64, so 2^63 is not bad input for it.
        func numeric(_ prefix: [String], _ option: String, _ suffix: [String] = [], huge includeHuge: Bool = true) {
            for value in numbers + (includeHuge ? huge : []) where includeHuge || value != "9223372036854775808" {
                cases.append(prefix + [option, value] + suffix)
            }
        }
        let run = ["run", "auction-race", "--report-dir", out]
        numeric(run, "--seed", huge: false)
        let explore = ["explore", "like-storm", "--report-dir", out]
        numeric(explore, "--preemption-bound")
        numeric(explore, "--max-schedules")
        numeric(explore, "--seed", huge: false)
        let thresholds = ["placeBid.p99<1e300ms", "placeBid.p99<1e300", "placeBid.p99<99999999999h", "plceBid.p99<1s", "placeBid.p42<1s",
                          "placeBid.p99", "placeBid.p99<", "<1s", ".p99<1s", "placeBid.p99<-1s", "placeBid.p99<NaNms", "placeBid.p99<infs",
                          "placeBid.p99<1s<2s", "placeBid.p99<=", "", "placeBid.p99<1xs", "placeBid.p99<18446744073709551616ns"]
        let strategies = ["", "pct", "pct:x", "pct:-1", "pct:99999999999999999999", "random:1", "nope", "pct:1:2:3", "pct:3:x"]
        let parameters = ["x", "=1", "bidders=", "bidders=abc", "bidders=99999999999999999999", "bidders=-5", "nosuch=1",
                          "bidders=0", "bidders=100000000", "bidders=1e3"]
        for scenario in ["auction-race", "like-storm", "seat-contention"] {
            for threshold in thresholds { cases.append(["run", scenario, "--threshold", threshold, "--report-dir", out]) }
        }
        for strategy in strategies + ["portfolio:2", "nonpreemptive:1", "pct:2:0", "pct:65"] { cases.append(run + ["--strategy", strategy]) }
        for window in ["", "x", "10", "-5ms", "1e3ms", "10 ms", "99999999999h", "61s", "10mss", "ms", "1.2.3ms", "ｍｓ"] {
            cases.append(run + ["--timing-window", window])
        }
        for parameter in parameters { cases.append(run + ["--param", parameter]) }
        for variant in ["", "nope", "seat-random-id"] { cases.append(run + ["--variant", variant]) }
        for directory in ["", nullDevice, root + "/a-fifo", root + "/broken-0-empty.json"] {
            cases.append(["run", "crash-test", "--param", "crashSeed=100", "--report-dir", directory, "--quiet"])
        }
        cases += [["run"], ["run", "no-such"], ["run", ""], ["run", "auction-race", "extra"], ["run", "auction-race", "--bogus"],
                  ["run", "auction-race", "--seed"], ["run", "auction-race", "--threshold"]]

        let fuzz = ["fuzz", "crash-test", "--seeds", "1..<3", "--report-dir", out]
        for seeds in ["", "1..<1", "5..<1", "-1..<5", "1..<99999999999999999999", "0..<5000000000", "a..<b", "1...5", "1..<", "..<5",
                      "1..<2..<3", "18446744073709551615..<18446744073709551616", " 1..<3"] {
            cases.append(["fuzz", "crash-test", "--seeds", seeds, "--report-dir", out])
        }
        for option in ["--jobs", "--shrink-runs", "--determinism-every"] { numeric(fuzz, option) }
        for shard in ["", "1", "a/b", "-1/2", "2/2", "0/0", "9223372036854775806/9223372036854775807", "0/9223372036854775807",
                      "0/100001", "1/2/3", "0/-1", "/2", "0/"] {
            cases.append(fuzz + ["--shard", shard])
        }
        numeric(fuzz + ["--shard-from-env"], "--shards")
        cases += [fuzz + ["--shards", "2"], fuzz + ["--shard-from-env"], fuzz + ["--shard", "0/2", "--shard-from-env", "--shards", "2"]]
        for threshold in thresholds.prefix(8) { cases.append(fuzz + ["--threshold", threshold]) }
        for strategy in strategies { cases.append(fuzz + ["--strategy", strategy]) }
        for parameter in parameters { cases.append(fuzz + ["--param", parameter]) }
        for path in oddPaths where path != root + "/no-such-file.json" && path != root + "/no/such/dir/file.json" && path != " " {
            cases.append(fuzz + ["--result", path])
        }
        for path in oddPaths + brokenFiles.prefix(40) { cases.append(fuzz + ["--resume", "--result", path]) }
        cases += [fuzz + ["--resume", "--result", sweep, "--strategy", "fifo"], fuzz + ["--resume", "--result", sweep, "--param", "crashSeed=7"],
                  ["fuzz", "crash-test", "--seeds", "5..<9", "--resume", "--result", sweep, "--no-swarm"],
                  ["fuzz"], ["fuzz", "no-such", "--seeds", "1..<3"]]

        let worker = ["fuzz-worker", "crash-test", "--seeds", "1..<2", "--failure-dir", out]
        for option in ["--stride", "--determinism-every"] { numeric(worker, option) }
        cases += [["fuzz-worker", "crash-test", "--seeds", "1..<2", "--failure-dir", ""], ["fuzz-worker", "crash-test", "--seeds", "x", "--failure-dir", out]]

        for path in oddPaths + brokenFiles {
            cases.append(["replay", path, "--report-dir", out])
            cases.append(["shrink", path, "--output", out + "/s.json"])
            cases.append(["compare", path, report])
            cases.append(["compare", report, path])
            cases.append(["merge", path, "--output", out + "/m.json"])
            cases.append(["merge", sweep, path, "--output", out + "/m.json"])
        }
        for path in oddPaths { cases.append(["timeline", path]) }
        for path in brokenFiles where !path.contains("-report") { cases.append(["timeline", path]) }
        numeric(["shrink", artifact], "--max-runs")
        cases += [["replay", report, "--report-dir", ""], ["replay", artifact, "--report-dir", ""], ["replay"], ["shrink"], ["compare", report],
                  ["merge"], ["timeline"], ["replay", report, "extra"]]
        for output in ["", nullDevice, root + "/a-directory", root + "/a-fifo", root + "/a-symlink.json", root + "/a-directory/"] {
            cases.append(["merge", sweep, "--output", output])
            cases.append(["shrink", artifact, "--output", output])
        }
        cases.append(["merge", sweep, sweep, "--output", out + "/m.json"])

        for option in ["--seeds", "--shrink-runs", "--jobs"] { numeric(["zoo", "--bug", "no-such-bug"], option) }
        for output in ["", nullDevice, root + "/a-directory", root + "/a-fifo", root + "/a-symlink.json"] {
            cases.append(["zoo", "--bug", "unlike-nonliker-decrements", "--seeds", "1", "--output", output])
        }
        // A report folder that exists and is not a folder (an existing folder is fine).
        for folder in ["", nullDevice, root + "/a-fifo", root + "/broken-0-empty.json"] {
            cases.append(["load", "auction-race", "--duration", "1s", "--rate", "5", "--report-dir", folder])
            cases.append(["replay", report, "--report-dir", folder])
        }
        cases += [["zoo", "--bug", "no-such-bug"], ["zoo", "--bug", ""], ["zoo", "--seeds", "0"], ["zoo", "extra"]]
        for strategy in strategies + ["replay"] { cases.append(["zoo", "--bug", "unlike-nonliker-decrements", "--seeds", "1", "--strategy", strategy]) }

        // Nothing listens on loopback port 1: a valid number goes on to the address, which is refused.
        for option in ["--programs", "--jobs", "--first-seed", "--show", "--rules-requests", "--rules-first-seed"] {
            numeric(["conformance", "--emulator", "127.0.0.1:1"], option)
        }
        for apps in ["", "nope", "knb,,ufree", ",", "KNB", "knb, nope"] { cases.append(["conformance", "--apps", apps, "--programs", "0"]) }
        cases.append(["conformance", "--programs", "0", "--rules-requests", "0"])
        for address in ["", "nothost", "10.0.0.1:8080", "127.0.0.1:99999", "127.0.0.1:0", "localhost:", "[::1]", "127.0.0.1:1", "127.1.2:80", "é:80"] {
            cases.append(["conformance", "--emulator", address, "--programs", "1"])
        }

        for option in ["--seeds", "--jobs", "--bidders"] { numeric(["selfcheck"], option) }
        for strategy in strategies { cases.append(["selfcheck", "--seeds", "1", "--strategy", strategy]) }
        for trace in ["", nullDevice, root + "/a-directory", root + "/a-fifo", root + "/a-symlink.json"] {
            cases.append(["selfcheck", "--seeds", "1", "--trace", trace])
        }

        for option in ["--messages", "--repetitions", "--users", "--testclock-users", "--seeds", "--scenario-seeds", "--memory-users"] {
            numeric(["bench", "--only", "memory"], option)
        }
        for only in ["", "nope", "kernel,,seeds", "kernel, nope", ","] { cases.append(["bench", "--only", only]) }

        let load = ["load", "auction-race", "--duration", "1s", "--rate", "5", "--report-dir", out]
        for rate in ["", "0", "-5", "abc", "1e300", "5/x", "5/", "/s", "NaN", "inf", "100001/s", "99999999999999999999"] {
            cases.append(["load", "auction-race", "--duration", "1s", "--rate", rate, "--report-dir", out])
            if rate != "0" { cases.append(load + ["--ramp-to", rate]) }  // a ramp down to 0/s is a valid k6 stage
        }
        for stages in ["", "10s", "10s:", ":5", "0s:5", "10s:-1", "10s:abc", "10s:5,,", "25h:5"] {
            cases.append(["load", "auction-race", "--rate", "5", "--stages", stages, "--report-dir", out])
        }
        for duration in ["", "0", "-1s", "abc", "1e300s", "25h", "1xs", "NaN", "99999999999999999999h"] {
            cases.append(["load", "auction-race", "--duration", duration, "--rate", "5", "--report-dir", out])
            if duration != "0" { cases.append(["load", "auction-race", "--duration", "1s", "--vus", "2", "--think-time", duration, "--report-dir", out]) }
        }
        numeric(["load", "auction-race", "--duration", "1s", "--report-dir", out], "--vus")
        numeric(load, "--max-in-flight")
        numeric(load, "--seed", huge: false)
        for threshold in thresholds { cases.append(load + ["--threshold", threshold]) }
        cases += [load + ["--report-dir", ""], load + ["--vus", "2"], ["load", "auction-race", "--rate", "5"],
                  load + ["--stages", "10s:5"], load + ["--variant", "no-such-variant"], load + ["--executor", "constant-vus"],
                  ["load", "no-such", "--duration", "1s", "--rate", "5"],
                  ["load", "auction-race", "--duration", "1s"], load + ["--think-time", "1s"]]

        cases += [["list", "extra"], ["list", "--bogus"], ["bogus"], ["--bogus"], [""], ["run", "--seed", "1", "--seed"]]
        return cases
    }
}
