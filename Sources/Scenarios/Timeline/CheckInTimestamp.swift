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

    /// Strict ISO-8601 with an explicit offset.
    private static func iso(_ b: [UInt8]) -> Result<Timestamp, Problem> {
        do throws(Refusal) {
            return .success(try isoInstant(b))
        } catch {
            return .failure(Problem("bad timestamp '\(String(decoding: b.prefix(64), as: UTF8.self))': \(error.why)"))
        }
    }

    /// Why an ISO-8601 text was refused (the caller quotes the text before it).
    private struct Refusal: Error {
        let why: String
        init(_ why: String) { self.why = why }
    }

    /// Reads date, 'T', time, optional fraction and offset, in that order, then checks the fields.
    private static func isoInstant(_ b: [UInt8]) throws(Refusal) -> Timestamp {
        var cursor = ISOCursor(bytes: b)
        guard let year = cursor.digits(4), cursor.expect(0x2D), let month = cursor.digits(2), cursor.expect(0x2D), let day = cursor.digits(2) else {
            throw Refusal(expected)
        }
        guard cursor.expect(0x54) else { throw Refusal(cursor.current == 0x20 || cursor.current == 0x74 ? "separate date and time with 'T'" : expected) }
        guard let hour = cursor.digits(2), cursor.expect(0x3A), let minute = cursor.digits(2), cursor.expect(0x3A), let second = cursor.digits(2) else {
            throw Refusal(expected)
        }
        let nanos = try cursor.fraction()
        let offsetMinutes = try cursor.offsetMinutes()
        guard cursor.isAtEnd else { throw Refusal("unexpected text after the offset") }
        guard (1...12).contains(month) else { throw Refusal("month \(month) does not exist") }
        guard day >= 1 && day <= daysIn(month: month, year: year) else { throw Refusal("day \(day) does not exist in \(year)-\(month < 10 ? "0" : "")\(month)") }
        guard hour <= 23 else { throw Refusal("hour \(hour) does not exist (00–23)") }
        guard minute <= 59 else { throw Refusal("minute \(minute) does not exist") }
        guard second <= 59 else { throw Refusal("second \(second) does not exist (leap seconds are not supported)") }
        let days = LocalTimeOracle.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        guard supported.contains(seconds) else { throw Refusal("outside the supported range 1970-01-01 to 2199-12-31 UTC") }
        return Timestamp(unixNanoseconds: seconds * 1_000_000_000 + nanos)
    }

    /// A read position in an ISO-8601 text.
    private struct ISOCursor {
        let bytes: [UInt8]
        var position = 0

        /// The byte at the position, nil at the end.
        var current: UInt8? { position < bytes.count ? bytes[position] : nil }
        var isAtEnd: Bool { position == bytes.count }

        /// Reads `count` decimal digits, or nothing if they are not all there.
        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for k in position..<(position + count) {
                guard bytes[k] >= 0x30 && bytes[k] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[k] - 0x30)
            }
            position += count
            return value
        }

        /// Reads `byte` if it is next.
        mutating func expect(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// An optional fraction of a second ('.' or ',' then 1 to 9 digits), in nanoseconds.
        mutating func fraction() throws(Refusal) -> Int64 {
            var nanos: Int64 = 0
            guard current == 0x2E || current == 0x2C else { return nanos }
            position += 1
            var count = 0
            while position < bytes.count, bytes[position] >= 0x30 && bytes[position] <= 0x39 {
                guard count < 9 else { throw Refusal("more than 9 fractional digits") }
                nanos = nanos * 10 + Int64(bytes[position] - 0x30)
                count += 1
                position += 1
            }
            guard count > 0 else { throw Refusal(expected) }
            for _ in count..<9 { nanos *= 10 }
            return nanos
        }

        /// The UTC offset in minutes: 'Z' or ±HH[:]MM within ±14:00.
        mutating func offsetMinutes() throws(Refusal) -> Int {
            if expect(0x5A) { return 0 }
            guard current == 0x2B || current == 0x2D else {
                if isAtEnd { throw Refusal("no UTC offset: add Z or ±HH:MM (a local time alone is ambiguous)") }
                throw Refusal("zone abbreviations such as '\(String(decoding: bytes[position...].prefix(8), as: UTF8.self).trimmingPrefix(" "))' are ambiguous: give the offset (±HH:MM or Z)")
            }
            let sign = current == 0x2D ? -1 : 1
            position += 1
            guard let offsetHours = digits(2) else { throw Refusal("the offset must be ±HH:MM") }
            _ = expect(0x3A)
            guard let offsetMinute = digits(2) else { throw Refusal("the offset must be ±HH:MM") }
            guard offsetMinute < 60 else { throw Refusal("offset minutes \(offsetMinute) must be below 60") }
            let total = offsetHours * 60 + offsetMinute
            guard total <= maxOffsetMinutes else { throw Refusal("offset beyond ±14:00 (no place on Earth uses it)") }
            return sign * total
        }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
