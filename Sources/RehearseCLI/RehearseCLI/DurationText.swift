/// The command line's one duration grammar, read by every option that takes a duration
/// (`--timing-window`, `--max-virtual-time`, `--stuck-job-limit`, `--duration`, `--think-time`,
/// `--graceful-stop`, the durations of `--stages`): a decimal number and a unit, `ns`, `us` (or
/// `µs`), `ms`, `s`, `m` or `h`, such as `10ms`, `250us`, `1.5s`, `2m` or `168h`, optionally with a
/// leading `+`; a number without a unit only when it is zero (`0`). No exponent, no sign but `+`,
/// no spaces. The value is exact to the nanosecond (a finer fraction rounds to the nearest, a
/// half up) and at most `UInt64.max` nanoseconds.
enum DurationText {
    /// What the grammar expects, for messages.
    static let expected = "not a duration: a number with a unit ns, us, ms, s, m or h (e.g. 10s, 250ms), or 0"

    /// The units and their nanoseconds.
    static let units: [String: UInt64] = [
        "ns": 1, "us": 1_000, "µs": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "m": 60_000_000_000, "h": 3_600_000_000_000,
    ]

    /// Fraction digits read: together the digits after them are worth less than a ten-thousandth
    /// of a nanosecond, even of an hour.
    private static let fractionDigits = 17

    /// `text` in nanoseconds; nil when it is not a duration of the grammar or exceeds UInt64.
    static func nanoseconds(_ text: String) -> UInt64? {
        var rest = Substring(text)
        if rest.first == "+" { rest = rest.dropFirst() }
        let numberEnd = rest.firstIndex { !isDigit($0) && $0 != "." } ?? rest.endIndex
        let parts = rest[..<numberEnd].split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, parts.contains(where: { !$0.isEmpty }) else { return nil }
        let unit = String(rest[numberEnd...])
        let scale: UInt64
        if unit.isEmpty {
            // A bare number says nothing of its unit: only zero means the same in every unit.
            guard parts.allSatisfy({ $0.allSatisfy { $0 == "0" } }) else { return nil }
            scale = 0
        } else {
            guard let unitScale = units[unit] else { return nil }
            scale = unitScale
        }
        guard let whole = parts[0].isEmpty ? 0 : UInt64(parts[0]) else { return nil }
        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        let fraction = parts.count == 2 ? parts[1].prefix(fractionDigits) : ""
        let (total, sumOverflow) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds(fraction, scale: scale))
        return sumOverflow ? nil : total
    }

    /// `nanoseconds` as a `Duration` (every UInt64 fits).
    static func duration(nanoseconds: UInt64) -> Duration {
        .seconds(Int64(nanoseconds / 1_000_000_000)) + .nanoseconds(Int64(nanoseconds % 1_000_000_000))
    }

    /// The fraction `0.digits` of a unit of `scale` nanoseconds, rounded to the nearest nanosecond.
    private static func fractionNanoseconds(_ digits: Substring, scale: UInt64) -> UInt64 {
        guard !digits.isEmpty, let numerator = UInt64(digits) else { return 0 }
        let divisor = (0..<digits.count).reduce(UInt64(1)) { power, _ in power * 10 }
        // numerator < divisor, so the quotient is below `scale` and fits.
        let (quotient, remainder) = divisor.dividingFullWidth(scale.multipliedFullWidth(by: numerator))
        return remainder * 2 >= divisor ? quotient + 1 : quotient
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isWholeNumber
    }
}
