/// A half-open range of seeds `low..<high`, and its split into disjoint shards for job arrays
/// (`--shard i/n`, Kubernetes Indexed Jobs): shard i of n takes `low + ⌊N·i/n⌋ ..< low + ⌊N·(i+1)/n⌋`,
/// each boundary rounded down to a multiple of the alignment (a guided sweep's blocks).
package struct SeedRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The first seed.
    package var low: UInt64
    /// One past the last seed.
    package var high: UInt64

    /// Seeds `low..<high`; traps if `high < low`.
    package init(low: UInt64, high: UInt64) {
        precondition(low <= high, "a seed range cannot end before it starts")
        self.low = low
        self.high = high
    }

    /// Parses `A..<B` (A < B, at most `ScenarioLimits.maxSweepSeeds` seeds).
    package init(parsing text: String) throws(ScenarioError) {
        let parts = text.components(separatedBy: "..<")
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low < high,
              high - low <= UInt64(ScenarioLimits.maxSweepSeeds) else { throw .malformedSeedRange(text) }
        self.init(low: low, high: high)
    }

    /// How many seeds.
    package var count: Int { Int(high - low) }

    /// Adds `seed` to sorted, disjoint `ranges`, joining neighbours (a sweep's seeds as they finish).
    package static func insert(_ seed: UInt64, into ranges: inout [SeedRange]) {
        var lower = 0, upper = ranges.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if ranges[middle].high <= seed { lower = middle + 1 } else { upper = middle }
        }
        if lower < ranges.count, ranges[lower].low <= seed { return }  // already covered
        let joinsBefore = lower > 0 && ranges[lower - 1].high == seed
        let joinsAfter = lower < ranges.count && seed < UInt64.max && ranges[lower].low == seed + 1
        switch (joinsBefore, joinsAfter) {
        case (true, true): ranges[lower - 1].high = ranges[lower].high; ranges.remove(at: lower)
        case (true, false): ranges[lower - 1].high = seed + 1
        case (false, true): ranges[lower].low = seed
        case (false, false): ranges.insert(SeedRange(low: seed, high: seed + 1), at: lower)
        }
    }

    /// Whether `seed` lies in one of sorted, disjoint `ranges`.
    package static func contains(_ seed: UInt64, in ranges: [SeedRange]) -> Bool {
        ranges.contains { $0.low <= seed && seed < $0.high }
    }
    /// Every seed, in order.
    package var seeds: [UInt64] { Array(low..<high) }
    /// `low..<high`, as `--seeds` takes it.
    package var description: String { "\(low)..<\(high)" }

    /// Shard `index` of `count`: disjoint from every other shard, and together they cover the range.
    package func shard(_ index: Int, of count: Int, aligned: UInt64 = 1) -> SeedRange {
        precondition(count >= 1 && index >= 0 && index < count, "shard \(index)/\(count) does not exist")
        precondition(aligned >= 1, "shards align to at least one seed")
        let total = high - low
        func boundary(_ shard: Int) -> UInt64 {
            guard shard < count else { return high }
            let offset = total * UInt64(shard) / UInt64(count)
            return low + offset - offset % aligned
        }
        return SeedRange(low: boundary(index), high: boundary(index + 1))
    }
}
