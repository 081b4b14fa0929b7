/// A seeded pseudo-random generator (xoshiro256**, Blackman & Vigna) for simulations; state is
/// seeded through SplitMix64 so that nearby seeds give unrelated sequences.
public struct SimRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// A generator seeded with `seed` (xoshiro256**, state from splitmix64).
    public init(seed: UInt64) {
        var mixer = seed
        func splitMix() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    /// The next 64 random bits.
    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift; `bound` > 0).
    @inline(__always)
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "SimRandom.below needs a positive bound")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }
}

/// Named, independent random streams derived from one seed: the stream for a name depends only
/// on the seed and the name, so adding a stream never changes another stream's draws.
public struct RandomStreams: Sendable {
    /// The simulation's seed.
    public let seed: UInt64

    /// The named streams of a run with seed `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// The generator for stream `name`.
    public func stream(named name: String) -> SimRandom {
        SimRandom(seed: seed ^ Self.fnv1a(name) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// FNV-1a over UTF-8: stable across processes (unlike `Hasher`).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
