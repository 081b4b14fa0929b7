/// A load iteration's choices, drawn from its index (a SplitMix64 hash): the same iteration
/// makes the same choices in every run and on every clock, without a shared random stream whose
/// draws would depend on the order concurrent iterations reach it.
package struct LoadDraw: Sendable {
    let index: Int

    /// The draws of iteration `index`.
    package init(_ index: Int) { self.index = index }

    /// A number in `0..<bound` for the choice named by `salt`.
    package func below(_ bound: Int, salt: UInt64) -> Int {
        precondition(bound > 0, "a draw needs a positive bound")
        var z = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ salt &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
