/// Named, independent streams of seeded randomness for the domain core.
///
/// Each component draws from its own stream (`"firestore.latency"`, `"triggers.duplicate"`, …), so
/// adding a stream or a draw in one component never changes another component's draws.
public protocol RandomSource: Sendable {
    /// A generator for the stream `name`; the same source and name give the same sequence.
    func stream(named name: String) -> any RandomNumberGenerator
}

/// A `RandomSource` derived from one 64-bit seed with SplitMix64, for running the domain core
/// outside a simulator (tests, load mode). Stream seeds mix the seed with an FNV-1a hash of the
/// name, never with `Hasher` (whose seed changes per process).
public struct SeededRandomSource: RandomSource {
    /// The seed every stream derives from.
    public let seed: UInt64

    /// Streams derived from `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// The stream called `name`: the same draws for the same seed and name.
    public func stream(named name: String) -> any RandomNumberGenerator {
        SplitMix64(seed: seed ^ fnv1a64(name))
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast, statistically sound 64-bit generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// FNV-1a over the UTF-8 bytes of `text`: stable across processes and platforms.
public func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    return hash
}
