import Foundation
import RehearsalTestSupport
import Testing

/// `rehearse timeline`: the shipped example reproduces its golden table; every defect found in its
/// input handling is pinned; 200 seeded logs agree row for row with an independent model of the SafeNSound
/// document; 1,000 generated malformed files each exit 2 with one line.
@Suite struct TimelineCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func write(_ content: String, name: String = "log.csv") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-tests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try Data(content.utf8).write(to: file)
        return file.path
    }

    static func timeline(_ content: String, name: String = "log.csv", _ extra: [String] = []) throws -> (status: Int32, out: String, err: String, path: String) {
        let path = try write(content, name: name)
        let output = try CommandLineRunner.run(["timeline", path] + extra)
        try? FileManager.default.removeItem(atPath: path)
        return (output.status, output.standardOutput, output.standardError, path)
    }

    /// The table's rows, cut at the header's column starts.
    static func rows(_ output: String) -> [TimelineReferenceModel.Row] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let headerIndex = lines.firstIndex(where: { $0.hasPrefix("time (UTC)") }) else { return [] }
        let header = lines[headerIndex]
        let starts = ["user", "since check-in", "local time (user's zone)", "what happened"].map { header.range(of: $0)!.lowerBound.utf16Offset(in: header) }
        return lines[(headerIndex + 1)...].filter { !$0.isEmpty }.map { line in
            let u = Array(line.utf16)
            func cell(_ a: Int, _ b: Int?) -> String {
                String(decoding: u[min(a, u.count)..<min(b ?? u.count, u.count)], as: UTF16.self).trimmingCharacters(in: .whitespaces)
            }
            return .init(utc: cell(0, starts[0]), user: cell(starts[0], starts[1]), since: cell(starts[1], starts[2]),
                         local: cell(starts[2], starts[3]), what: cell(starts[3], nil))
        }
    }

    @Test func exampleMatchesGoldenTable() throws {
        let example = Self.root.appendingPathComponent("docs/examples/checkins.csv").path
        let golden = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/checkins.timeline.txt"), encoding: .utf8)
        let output = try CommandLineRunner.run(["timeline", example])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.replacingOccurrences(of: example, with: "docs/examples/checkins.csv") == golden)
        #expect(output.standardOutput.contains("69h 00m") && output.standardOutput.contains("72h 00m") && output.standardOutput.contains("Jan 12, 2026 at 10:00 PM PST"))
    }

    /// The seed's 72-hour example, written as the model's events, agrees with the model too.
    @Test func seedExampleAgreesWithModel() throws {
        let example = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/checkins.csv"), encoding: .utf8)
        let output = try CommandLineRunner.run(["timeline", Self.root.appendingPathComponent("docs/examples/checkins.csv").path])
        let t0: Int64 = 1_768_284_000, bob: Int64 = 1_768_534_200
        let events: [TimelineReferenceModel.Event] = [
            .init(time: t0, user: "alice", kind: .threshold(72), zoneColumn: "America/Los_Angeles"),
            .init(time: t0, user: "alice", kind: .checkIn, zoneColumn: "America/Los_Angeles"),
            .init(time: t0, user: "bob", kind: .checkIn, zoneColumn: "America/Los_Angeles"),
            .init(time: bob, user: "bob", kind: .checkIn),
        ]
        #expect(example.split(separator: "\n").count == 5)
        #expect(Self.rows(output.standardOutput) == TimelineReferenceModel.expected(events))
    }

    /// DST cases: a 24 h window across the US spring-forward is 24 elapsed hours (the email at
    /// 23:00 local the next day, shown PDT), and across the EU fall-back in London likewise.
    @Test(arguments: [
        ("2026-03-07T22:00:13-08:00", "America/Los_Angeles", "2026-03-09 06:02", "Sun Mar 8, 11:02 PM PDT", "Mar 7, 2026 at 10:00 PM PST"),
        ("2026-10-24T12:00:13+01:00", "Europe/London", "2026-10-25 11:02", "Sun Oct 25, 11:02 AM GMT", "Oct 24, 2026 at 12:00 PM GMT+1"),
        ("2026-04-04T12:00:13+11:00", "Australia/Sydney", "2026-04-05 01:02", "Sun Apr 5, 11:02 AM GMT+10", "Apr 4, 2026 at 12:00 PM GMT+11"),
    ])
    func dstWindowsAreElapsedTime(stamp: String, zone: String, emailUTC: String, emailLocal: String, lastCheckIn: String) throws {
        let run = try Self.timeline("timestamp,user,event,timezone\n\(stamp),dee,set-threshold:24,\(zone)\n\(stamp),dee,checkin,\(zone)\n")
        #expect(run.status == 0, "\(run.err)")
        let email = Self.rows(run.out).first { $0.what.hasPrefix("email to") }
        #expect(email?.utc == emailUTC && email?.local == emailLocal && email?.since == "24h 01m", "\(run.out)")
        #expect(email?.what.contains("Last check-in: \(lastCheckIn).") == true, "\(run.out)")
    }

    /// Seeded logs (DST changes in five zones, threshold changes, pauses, contacts, outages,
    /// double taps, travel; CSV with LF/CRLF/BOM, ISO-8601 with many offsets or epochs, JSON)
    /// agree row for row with the independent model.
    @Test(.ciOnly, .tags(.subprocess)) func generatedLogsAgreeWithReferenceModel() throws {
        let seeds = Array(UInt64(1)...UInt64(Int(ProcessInfo.processInfo.environment["REHEARSE_TIMELINE_LOGS"] ?? "") ?? 200))
        let results = Box(count: seeds.count)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for index in stride(from: lane, to: seeds.count, by: 2) {
                let seed = seeds[index]
                let log = TimelineLogGenerator.valid(seed: seed)
                let expected = TimelineReferenceModel.expected(log.events)
                do {
                    let run = try Self.timeline(log.text, name: log.json ? "log.json" : "log.csv")
                    let actual = Self.rows(run.out)
                    if run.status != 0 || actual != expected {
                        let firstDiff = (0..<min(actual.count, expected.count)).first { actual[$0] != expected[$0] } ?? min(actual.count, expected.count)
                        results.set(index, "seed \(seed): status \(run.status) \(run.err) rows \(actual.count) vs \(expected.count); first difference at row \(firstDiff):\n  got  \(firstDiff < actual.count ? actual[firstDiff].description : "-")\n  want \(firstDiff < expected.count ? expected[firstDiff].description : "-")")
                    }
                } catch {
                    results.set(index, "seed \(seed): \(error)")
                }
            }
        }
        let failures = results.values.compactMap { $0 }
        // What the logs exercised (from the model): each kind of row must occur, or agreement means little.
        let kinds = ["check-in rejected: at most 1", "; cancelled ", "email to contacts cancelled", "push pre-notification:",
                     "push pre-notification failed", "failed (SendGrid 429", "monitoring paused", "monitoring resumed",
                     "emergency contact added", "emergency contact removed", "emergency contact changed", "contact change rejected",
                     "threshold set to", "time zone set to", "PDT", "EDT", "GMT+1", "GMT+11", "GMT+9", "PST"]
        var tally = [String: Int]()
        for seed in seeds {
            for row in TimelineReferenceModel.expected(TimelineLogGenerator.valid(seed: seed).events) {
                for kind in kinds where row.what.contains(kind) || row.local.hasSuffix(" " + kind) { tally[kind, default: 0] += 1 }
            }
        }
        print("timeline reference model: \(seeds.count - failures.count) of \(seeds.count) logs agree; rows by kind: \(kinds.map { "\($0)=\(tally[$0] ?? 0)" }.joined(separator: ", "))")
        // The generator is seeded, so this tally is fixed for the default 200 logs (fewer via the environment: not checked).
        #expect(seeds.count < 200 || kinds.allSatisfy { (tally[$0] ?? 0) > 0 }, "\(tally)")
        #expect(failures.isEmpty, "\(failures.count) of \(seeds.count) disagree:\n\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// 1,000 generated malformed files: none crashes, each exits 2 with one line naming the file.
    @Test(.ciOnly, .tags(.subprocess)) func generatedMalformedFilesExitTwoWithOneLine() throws {
        let count = Int(ProcessInfo.processInfo.environment["REHEARSE_TIMELINE_MALFORMED"] ?? "") ?? 1_000
        let results = Box(count: count)
        DispatchQueue.concurrentPerform(iterations: 3) { lane in
            for index in stride(from: lane, to: count, by: 3) {
                let (text, kind) = TimelineLogGenerator.malformed(seed: UInt64(index))
                do {
                    let run = try Self.timeline(text, name: kind == "json" ? "bad.json" : "bad.csv")
                    let lines = run.err.split(separator: "\n")
                    if run.status != 2 || lines.count != 1 || !run.err.contains(run.path) || !run.out.isEmpty {
                        results.set(index, "case \(index) (\(kind)): status \(run.status), stderr \(run.err.debugDescription.prefix(300)), input \(text.debugDescription.prefix(200))")
                    }
                } catch {
                    results.set(index, "case \(index): \(error)")
                }
            }
        }
        let failures = results.values.compactMap { $0 }
        #expect(failures.isEmpty, "\(failures.count) of \(count):\n\(failures.prefix(10).joined(separator: "\n"))")
    }

    @Test(arguments: [
        ("timestamp,user,event\n2026-01-12T22:00:00,alice,checkin\n", ":2:1: bad timestamp", "no UTC offset"),
        ("timestamp,user\n1,alice\n", ":1: missing column 'event'", ""),
        ("timestamp,user,event\n1768284000,alice,dance\n", ":2:18: unknown event 'dance'", ""),
        ("timestamp,user,event,timezone\n1768284000,alice,checkin,Mars/Olympus\n", ":2:26: unknown time zone", ""),
        ("timestamp,user,event,timezone\n1768284000,alice,checkin,PST\n", ":2:26: time zone 'PST' is an abbreviation", ""),
        ("timestamp,user,event,device\n1768284000,alice,checkin,phone\n", ":1:22: unknown column 'device'", ""),
        ("timestamp,user,event\n2026-02-30T10:00:00Z,alice,checkin\n", ":2:1: bad timestamp '2026-02-30T10:00:00Z': day 30 does not exist", ""),
        ("timestamp,user,event\n2026-01-12T22:00:00+25:00,alice,checkin\n", ":2:1: bad timestamp '2026-01-12T22:00:00+25:00': offset beyond ±14:00", ""),
        ("timestamp,user,event\n2026-01-12T22:00:00 PST,alice,checkin\n", ":2:1: bad timestamp", "zone abbreviations such as 'PST' are ambiguous"),
        ("timestamp,user,event\n2026-01-12 22:00:00Z,alice,checkin\n", ":2:1: bad timestamp", "separate date and time with 'T'"),
        ("timestamp,user,event\n2026-01-12T22:00:00PST,alice,checkin\n", ":2:1: bad timestamp", "zone abbreviations such as 'PST' are ambiguous"),
        ("timestamp,user,event\n2300-01-01T00:00:00Z,alice,checkin\n", ":2:1: bad timestamp '2300-01-01T00:00:00Z': outside the supported range", ""),
        ("timestamp,user,event\n99999999999999,alice,checkin\n", ":2:1: epoch seconds '99999999999999' are outside the supported range", ""),
        ("timestamp,user,event\n1768284000,alice,checkin\n1803000000,alice,checkin\n", ":3: the log spans 401 days", "at most 400 days"),
        ("timestamp,user,event\n", ": no events", ""),
    ])
    func malformedFileExitsTwo(content: String, expected: String, alsoExpected: String) throws {
        let run = try Self.timeline(content)
        #expect(run.status == 2, "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1)
        #expect(run.err.contains(run.path + expected), "\(run.err)")
        #expect(alsoExpected.isEmpty || run.err.contains(alsoExpected), "\(run.err)")
    }

    /// CRLF line endings and a UTF-8 BOM read like the plain file.
    @Test func crlfAndBomAreAccepted() throws {
        let plain = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/checkins.csv"), encoding: .utf8)
        let reference = try Self.timeline(plain)
        for variant in ["\u{FEFF}" + plain, plain.replacingOccurrences(of: "\n", with: "\r\n"), "\u{FEFF}" + plain.replacingOccurrences(of: "\n", with: "\r\n")] {
            let run = try Self.timeline(variant)
            #expect(run.status == 0, "\(run.err)")
            #expect(Self.rows(run.out) == Self.rows(reference.out) && Self.rows(run.out).count == 9)
        }
    }

    /// A log of 40 days (beyond the simulator's default 30-day limit) is replayed whole.
    @Test func longLogsAreReplayedWhole() throws {
        var text = "timestamp,user,event\n"
        for day in 0..<40 { text += "\(1_768_284_013 + Int64(day) * 86_400),alice,checkin\n" }
        let run = try Self.timeline(text)
        #expect(run.status == 0, "\(run.err)")
        let rows = Self.rows(run.out)
        #expect(rows.filter { $0.what.hasPrefix("check-in") }.count == 40)
        #expect(rows.last?.what.hasPrefix("email to contact-of-alice@example.com") == true, "\(rows.suffix(2))")
    }

    /// "Max 1 heartbeat per minute per user" (SafeNSound document, Security Measures): the first
    /// tap (onboarding) counts; a tap 30 s later is refused; one 70 s after the first is accepted;
    /// exactly 60 s after the last accepted one is accepted.
    @Test func rateLimitCountsTheFirstTap() throws {
        let run = try Self.timeline("timestamp,user,event\n1768284000,a,checkin\n1768284030,a,checkin\n1768284070,a,checkin\n1768284130,a,checkin\n")
        let taps = Self.rows(run.out).filter { $0.what.hasPrefix("check-in") }.map(\.what)
        #expect(taps == ["check-in (onboarding: threshold 72 h, UTC)", "check-in rejected: at most 1 heartbeat per minute (retry in 30 s)", "check-in", "check-in"])
    }

    /// Pause, contacts, outages and the variant option in one log.
    @Test func extendedEventsAndVariant() throws {
        let log = """
        timestamp,user,event,timezone
        2026-01-12T22:00:13-08:00,bo,add-contact:ana@example.org,America/Los_Angeles
        2026-01-12T22:00:13-08:00,bo,checkin,
        2026-01-12T22:05:13-08:00,bo,add-contact:ben@example.org,
        2026-01-12T22:06:13-08:00,bo,edit-contact:ana@example.org->amy@example.org,
        2026-01-12T22:07:13-08:00,bo,remove-contact:zed@example.org,
        2026-01-15T21:55:13-08:00,bo,email-fails:10,
        """
        let run = try Self.timeline(log)
        #expect(run.status == 0, "\(run.err)")
        let what = Self.rows(run.out).map(\.what)
        #expect(what.contains("emergency contact changed: ana@example.org -> amy@example.org"))
        #expect(what.contains("contact change rejected: zed@example.org is not an emergency contact"))
        #expect(what.filter { $0.hasPrefix("email to amy@example.org failed (SendGrid 429") }.count == 2, "\(what)")
        #expect(what.filter { $0.hasPrefix("email to amy@example.org: ") }.count == 1 && what.filter { $0.hasPrefix("email to ben@example.org: ") }.count == 1)
        let utc = try Self.timeline(log, ["--variant", "utc-email"])
        #expect(utc.status == 0 && utc.out.contains("Last check-in: Jan 13, 2026 at 6:00 AM UTC."), "\(utc.err)")
        let dst = "timestamp,user,event,timezone\n2026-03-07T22:00:13-08:00,dee,set-threshold:24,America/Los_Angeles\n2026-03-07T22:00:13-08:00,dee,checkin,\n"
        let wall = try Self.timeline(dst, ["--variant", "wall-clock-threshold"])
        #expect(Self.rows(wall.out).last?.since == "23h 01m", "calendar-day arithmetic emails an hour early across the spring-forward")
        let bad = try Self.timeline(log, ["--variant", "sloppy"])
        #expect(bad.status == 2 && bad.err.contains("'sloppy' is invalid for '--variant <variant>': not a SafeNSound design"), "\(bad.err)")
    }

    /// Results written from several threads, one slot each.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [String?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: String) { lock.lock(); slots[index] = value; lock.unlock() }
        var values: [String?] { lock.lock(); defer { lock.unlock() }; return slots }
    }
}
