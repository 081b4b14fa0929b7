import SimulatedFirebase

/// RFC 3339 UTC timestamps with up to nine fractional digits (`2026-01-12T06:00:00.123456Z`), as
/// Firestore's REST API writes `timestampValue`, `updateTime` and `readTime`. Civil-date
/// arithmetic by hand: no Foundation formatter, no time zone database, no locale.
public enum RFC3339 {
    /// `instant` in UTC with nanoseconds (`…T…:…:….000000001Z`; whole seconds have no fraction).
    public static func format(_ instant: Timestamp) -> String {
        let seconds = instant.unixSeconds
        let nanoseconds = instant.unixNanoseconds - seconds * 1_000_000_000
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int(secondOfDay / 3600), 2)):\(pad(Int(secondOfDay % 3600 / 60), 2)):\(pad(Int(secondOfDay % 60), 2))"
        if nanoseconds != 0 { text += "." + pad(Int(nanoseconds), 9) }
        return text + "Z"
    }

    /// The instant `text` names (`Z` or a `±hh:mm` offset; fraction of up to nine digits).
    public static func parse(_ text: String) throws(RESTError) -> Timestamp {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) throws(RESTError) -> Int64 {
            guard range.upperBound <= bytes.count else { throw .malformedResponse("timestamp too short: \(text)") }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 48 && byte <= 57 else { throw .malformedResponse("not a timestamp: \(text)") }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116, bytes[13] == 58, bytes[16] == 58 else {
            throw .malformedResponse("not an RFC 3339 timestamp: \(text)")
        }
        let days = days(fromCivil: Int(try number(0..<4)), Int(try number(5..<7)), Int(try number(8..<10)))
        var seconds = days * 86_400 + (try number(11..<13)) * 3600 + (try number(14..<16)) * 60 + (try number(17..<19))
        var position = 19
        var nanoseconds: Int64 = 0
        if position < bytes.count && bytes[position] == 46 {
            position += 1
            var digits = 0
            while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[position] - 48) }
                digits += 1
                position += 1
            }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        guard position < bytes.count else { throw .malformedResponse("timestamp without a zone: \(text)") }
        if bytes[position] != 90 && bytes[position] != 122 {
            let sign: Int64 = bytes[position] == 45 ? -1 : 1
            let offset = (try number(position + 1..<position + 3)) * 3600 + (try number(position + 4..<position + 6)) * 60
            seconds -= sign * offset
        }
        return Timestamp(unixNanoseconds: seconds * 1_000_000_000 + nanoseconds)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }
}
