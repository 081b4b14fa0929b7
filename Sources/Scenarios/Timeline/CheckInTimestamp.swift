import Domain
import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase

/// Reads the `timestamp` field of a check-in row without Foundation: strict ISO-8601 with an
/// explicit offset, or whole epoch seconds, within `supported` (so a year-2300 date or a 14-digit
/// epoch is bad input, never an overflow). Impossible dates (Feb 30, 24:00, second 60) and
/// offsets beyond ±14:00 are rejected, not rolled over.
enum CheckInTimestamp {
    /// 1970-01-01T00:00:00Z up to (not including) 2200-01-01T00:00:00Z: well inside what a
    /// `Timestamp` (Int64 nanoseconds, up to 2262) holds with the replay's tail added.
    static let supported: Range<Int64> = 0..<7_258_118_400
    /// Largest UTC offset in use anywhere (Kiribati +14:00; the smallest is −12:00).
    static let maxOffsetMinutes = 14 * 60

    /// The instant, or why the text is not a timestamp.
    static func parse(_ text: Substring.UTF8View) -> Result<Timestamp, Problem> {
        let bytes = Array(text)
        guard !bytes.isEmpty else { return .failure(.init("empty timestamp")) }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || (bytes.first == 0x2D && bytes.count > 1 && bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })) {
            guard bytes.count <= 12, let seconds = Int64(String(decoding: bytes, as: UTF8.self)), supported.contains(seconds) else {
                return .failure(.init("epoch seconds '\(String(decoding: bytes, as: UTF8.self))' are outside the supported range 0...\(supported.upperBound - 1) (1970-01-01 to 2199-12-31 UTC)"))
            }
            return .success(Timestamp(unixSeconds: seconds))
        }
        return iso(bytes)
    }

    /// Why a timestamp was refused.
    struct Problem: Error, Equatable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    private static let expected = "expected ISO-8601 with an offset (2026-01-12T22:00:00-08:00, …Z) or epoch seconds"

    private static func iso(_ b: [UInt8]) -> Result<Timestamp, Problem> {
        let shown = String(decoding: b.prefix(64), as: UTF8.self)
        func bad(_ why: String) -> Result<Timestamp, Problem> { .failure(Problem("bad timestamp '\(shown)': \(why)")) }
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else { return bad(expected) }
        guard expect(0x54) else { return bad(i < b.count && (b[i] == 0x20 || b[i] == 0x74) ? "separate date and time with 'T'" : expected) }
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else { return bad(expected) }
        var nanos: Int64 = 0
        if i < b.count && (b[i] == 0x2E || b[i] == 0x2C) {
            i += 1
            var count = 0
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                guard count < 9 else { return bad("more than 9 fractional digits") }
                nanos = nanos * 10 + Int64(b[i] - 0x30)
                count += 1
                i += 1
            }
            guard count > 0 else { return bad(expected) }
            for _ in count..<9 { nanos *= 10 }
        }
        let offsetMinutes: Int
        if expect(0x5A) {
            offsetMinutes = 0
        } else if i < b.count && (b[i] == 0x2B || b[i] == 0x2D) {
            let sign = b[i] == 0x2D ? -1 : 1
            i += 1
            guard let offsetHours = digits(2) else { return bad("the offset must be ±HH:MM") }
            _ = expect(0x3A)
            guard let offsetMinute = digits(2) else { return bad("the offset must be ±HH:MM") }
            guard offsetMinute < 60 else { return bad("offset minutes \(offsetMinute) must be below 60") }
            let total = offsetHours * 60 + offsetMinute
            guard total <= maxOffsetMinutes else { return bad("offset beyond ±14:00 (no place on Earth uses it)") }
            offsetMinutes = sign * total
        } else if i == b.count {
            return bad("no UTC offset: add Z or ±HH:MM (a local time alone is ambiguous)")
        } else {
            return bad("zone abbreviations such as '\(String(decoding: b[i...].prefix(8), as: UTF8.self).trimmingPrefix(" "))' are ambiguous: give the offset (±HH:MM or Z)")
        }
        guard i == b.count else { return bad("unexpected text after the offset") }
        guard (1...12).contains(month) else { return bad("month \(month) does not exist") }
        guard day >= 1 && day <= daysIn(month: month, year: year) else { return bad("day \(day) does not exist in \(year)-\(month < 10 ? "0" : "")\(month)") }
        guard hour <= 23 else { return bad("hour \(hour) does not exist (00–23)") }
        guard minute <= 59 else { return bad("minute \(minute) does not exist") }
        guard second <= 59 else { return bad("second \(second) does not exist (leap seconds are not supported)") }
        let days = LocalTimeOracle.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        guard supported.contains(seconds) else { return bad("outside the supported range 1970-01-01 to 2199-12-31 UTC") }
        return .success(Timestamp(unixNanoseconds: seconds * 1_000_000_000 + nanos))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
