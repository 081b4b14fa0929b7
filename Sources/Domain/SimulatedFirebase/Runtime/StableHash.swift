/// Fixed, platform-independent mixing for simulated outside systems and deterministic ids
/// (`InspiredPlaces`, `KNBWebsite`, the KNB syncs' content hashes, UFree's phone hashes); FNV-1a
/// itself is `fnv1a64`.
package enum StableHash {
    /// SplitMix64 finalizer over three words.
    package static func mix(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
        var z = a &+ 0x9E37_79B9_7F4A_7C15 &* (b &+ 1) &+ 0xBF58_476D_1CE4_E5B9 &* (c &+ 1)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `value` as 16 lower-case hex digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
