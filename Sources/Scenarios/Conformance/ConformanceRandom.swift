/// The oracle's own seeded generator (SplitMix64): a program is a function of its seed alone.
package struct ConformanceRandom {
    private var state: UInt64

    package init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0..<bound.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with `percent` % chance.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `choices`.
    package mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
