import Sim
import Testing

/// `SimClock.Instant` moves by whole nanoseconds on both sides of `Duration`'s 64-bit shortcut
/// (18.4 s), backwards as well as forwards, and `duration(to:)` undoes `advanced(by:)`.
@Suite struct InstantArithmeticTests {
    static let cases: [(Duration, UInt64)] = [
        (.milliseconds(3), 1_003_000_000),
        (Duration(attoseconds: 2_999_999_999), 1_000_000_002),  // sub-nanosecond parts truncate
        (.seconds(20), 21_000_000_000),
        (.seconds(72 * 3_600), 259_201_000_000_000),
        (.milliseconds(-250), 750_000_000),
        (.seconds(-1), 0),
    ]

    @Test(arguments: cases)
    func advances(duration: Duration, expected: UInt64) {
        let start = SimClock.Instant(nanoseconds: 1_000_000_000)
        let moved = start.advanced(by: duration)
        #expect(moved.nanoseconds == expected)
        #expect(start.duration(to: moved) == Duration.nanoseconds(Int64(expected) - 1_000_000_000))
    }
}
