@testable import Domain
@testable import SimulatedFirebase
import Testing

/// `RandomNumberGenerator.int64(in:)` must make exactly the draws of the standard library's
/// `Int64.random(in:using:)`: latency samples feed every trace hash.
@Suite struct LatencyDrawTests {
    @Test func int64InMatchesStandardLibraryBitForBit() {
        var ranges = SplitMix64(seed: 14)
        var ours = SplitMix64(seed: 99)
        var theirs = SplitMix64(seed: 99)
        // Small, large, power-of-two, negative and whole-width ranges (the last is the edge case
        // where delta + 1 overflows), plus random ones.
        var cases: [ClosedRange<Int64>] = [0...0, 0...1, 0...3, -5...5, 0...(1 << 40), Int64.min...Int64.max, 0...Int64.max, -1...Int64.max]
        for _ in 0..<2_000 {
            let a = Int64(bitPattern: ranges.next()) >> Int64(ranges.next() % 63)
            let b = Int64(bitPattern: ranges.next()) >> Int64(ranges.next() % 63)
            cases.append(min(a, b)...max(a, b))
        }
        for range in cases {
            for _ in 0..<20 {
                #expect(ours.int64(in: range) == Int64.random(in: range, using: &theirs), "range \(range)")
            }
        }
    }

    @Test func latencySampleDrawsAsBefore() {
        let model = LatencyModel(median: .milliseconds(60), tailProbability: 0.05, tailMax: .seconds(2))
        var ours = SplitMix64(seed: 7)
        var reference = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            let sample = model.sample(using: &ours)
            // The original body of `sample`, with the standard library's draws.
            let roll = reference.unitInterval()
            let expected: Int64 = roll < model.tailProbability
                ? Int64.random(in: 120_000_000...2_000_000_000, using: &reference)
                : Int64.random(in: 0...120_000_000, using: &reference)
            #expect(sample == .nanoseconds(expected))
        }
    }
}
