import Domain
import SimulatedFirebase
import Testing

/// `Duration.nanoseconds` takes a 64-bit shortcut below 2^64 attoseconds (18.4 s) and 128-bit
/// arithmetic above it; both sides of the boundary, negatives and the wrapping ends are checked
/// against values written out by hand.
@Suite struct DurationNanosecondsTests {
    static let cases: [(Duration, Int64)] = [
        (.zero, 0),
        (.nanoseconds(1), 1),
        (.milliseconds(1_500), 1_500_000_000),
        (Duration(attoseconds: 1_999_999_999), 1),  // sub-nanosecond parts truncate
        (Duration(attoseconds: 999_999_999), 0),
        (.seconds(18), 18_000_000_000),
        (Duration(attoseconds: Int128(UInt64.max)), 18_446_744_073),  // the last 64-bit value
        (Duration(attoseconds: Int128(UInt64.max) + 1), 18_446_744_073),  // the first 128-bit one
        (.seconds(19), 19_000_000_000),
        (.seconds(72 * 3_600), 259_200_000_000_000),
        (.nanoseconds(-5), -5),
        (Duration(attoseconds: -1_999_999_999), -1),  // toward zero, as before
        (.seconds(-20), -20_000_000_000),
        // Past 292 years the count wraps, as `seconds &* 1e9 &+ attoseconds / 1e9` did.
        (.seconds(Int64.max), -1_000_000_000),
        (.seconds(Int64.min), 0),
        (.seconds(Int64.max / 2), Int64(truncatingIfNeeded: Int64.max / 2 &* 1_000_000_000)),
    ]

    @Test(arguments: cases)
    func wholeNanoseconds(duration: Duration, expected: Int64) {
        #expect(duration.nanoseconds == expected)
    }

    /// Every whole nanosecond count round-trips, on both sides of the 64-bit boundary.
    @Test func roundTrips() {
        for nanoseconds: Int64 in [0, 7, 18_446_744_073, 18_446_744_074, 9_000_000_000_000, -18_446_744_074, .max, .min] {
            #expect(Duration.nanoseconds(nanoseconds).nanoseconds == nanoseconds)
        }
    }
}
