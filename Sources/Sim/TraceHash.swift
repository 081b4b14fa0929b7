/// A rolling 64-bit hash over a run's trace: every scheduling decision and recorded event is
/// folded in, in order, so two runs with equal hashes made the same choices and saw the same events.
public struct TraceHash: Sendable, Hashable, CustomStringConvertible {
    /// The current value.
    public private(set) var value: UInt64 = 0x6A09_E667_F3BC_C908

    /// The hash of an empty trace.
    public init() {}

    @inline(__always)
    package mutating func mix(_ word: UInt64) {
        // One round of a strong 64-bit mixer (from MurmurHash3's finaliser) per word.
        var x = value ^ word &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        value = x
    }

    mutating func mix(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        mix(hash)
    }

    /// Sixteen lower-case hex digits.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
