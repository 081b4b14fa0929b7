import Domain
@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
@testable import Timeline
import SimulatedFirebase
import Testing

/// `rehearse timeline`'s table writer: the same text whatever the chunk size, and the clock
/// face's remembered seconds and minutes print what a fresh face prints.
@Suite struct CheckInTableTests {
    init() { BuiltInScenarios.register() }

    static let log = """
    timestamp,user,event,timezone
    2026-03-07T20:00:00-08:00,ana,checkin,America/Los_Angeles
    2026-03-07T23:00:00-05:00,bo,checkin,America/New_York
    2026-03-07T23:00:00-05:00,bo,set-threshold:24,America/New_York
    2026-03-08T10:00:00+09:00,chié,checkin,Asia/Tokyo
    2026-03-08T10:00:00+09:00,chié,set-threshold:48,Asia/Tokyo
    2026-03-08T01:30:00+00:00,dee,checkin,Europe/London
    2026-03-08T01:30:00+00:00,ed,checkin,UTC
    2026-03-09T02:00:00+00:00,ed,email-fails:30,UTC
    """

    @Test func chunksJoinToTheWholeTable() throws {
        let rows = try CheckInReplay.run(try CheckInEvent.parse(Self.log, file: "x.csv"))
        #expect(rows.count > 15)
        let whole = CheckInReplay.table(rows)
        for chunkBytes in [1, 7, 100, 1 << 20] {
            var bytes: [UInt8] = []
            var chunks = 0
            CheckInReplay.writeTable(rows, chunkBytes: chunkBytes) { bytes.append(contentsOf: $0); chunks += 1 }
            #expect(String(decoding: bytes, as: UTF8.self) == whole, "chunks of \(chunkBytes) bytes")
            if chunkBytes == 1 { #expect(chunks > rows.count) }
        }
        // Every line is padded to the same columns (the non-ASCII user counts as 4 characters).
        let lines = whole.split(separator: "\n")
        let whatColumn = lines[0].range(of: "what happened")!.lowerBound
        let offset = lines[0].distance(from: lines[0].startIndex, to: whatColumn)
        for line in lines.dropFirst() {
            #expect(line.count > offset && line[line.index(line.startIndex, offsetBy: offset - 2)...].hasPrefix("  "), "\(line)")
        }
    }

    @Test func rowsAreInTimeThenUserOrder() throws {
        let rows = try CheckInReplay.run(try CheckInEvent.parse(Self.log, file: "x.csv"))
        for (earlier, later) in zip(rows, rows.dropFirst()) {
            #expect(earlier.time < later.time || (earlier.time == later.time && earlier.user <= later.user))
        }
        // One user's rows at one instant keep the order they happened in.
        let bo = rows.filter { $0.user == "bo" }.prefix(2).map(\.what)
        #expect(bo == ["check-in (onboarding: threshold 72 h, America/New_York)", "threshold set to 24 h"])
    }

    /// A face reused over many rows (remembering each zone's last second and the last UTC
    /// minute) against a new face for every cell, over interleaved zones and repeated instants.
    @Test func rememberedCellsMatchAFreshFace() {
        let zones = ["America/Los_Angeles", "Asia/Tokyo", "Europe/London", "Asia/Kathmandu", "UTC", "Nowhere/Unknown"]
        let start = Timestamp(unixNanoseconds: 1_772_928_000 * 1_000_000_000)
        let end = start + .seconds(3 * 86_400)
        var reused = CheckInClockFace(from: start, through: end)
        var seconds: Int64 = 0
        for step in 0..<3_000 {
            seconds += Int64(step % 5 == 0 ? 0 : (step * 7_919) % 211)
            let instant = start + .seconds(seconds)
            let zone = zones[(step * 31) % zones.count]
            var fresh = CheckInClockFace(from: start, through: end)
            #expect(reused.local(instant, zone: zone) == fresh.local(instant, zone: zone), "\(zone) \(seconds)")
            var bytes: [UInt8] = []
            reused.appendUTC(instant, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == fresh.utc(instant))
        }
    }
}
