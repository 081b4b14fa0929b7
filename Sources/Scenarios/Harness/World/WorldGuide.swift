import Sim

/// Coverage-guided worlds (what a coverage-guided fuzzer does with inputs, done with worlds): a
/// sweep runs in blocks of `blockSize` seeds counted from the start of its range. The first quarter
/// of a block draws blind worlds; the worlds of those seeds that reached something no earlier seed
/// of the block reached (a callable, trigger, job or rule at a new order of magnitude of calls, a
/// denied rule, a goal, a check) form the block's corpus, in seed order; each later seed of the
/// block mutates a corpus world (one to three of its draws redrawn), or draws blind one time in
/// three. Every choice is a function of the seed and the corpus, and the corpus of the block's
/// blind seeds' results, which the sweep records: the same range gives the same worlds on any
/// machine, however many workers, and shards cut at block boundaries agree.
package enum WorldGuide {
    /// Seeds per block.
    package static let blockSize: UInt64 = 400
    /// Blind seeds at the start of each block.
    package static let blindSeeds: UInt64 = 100
    /// The stream a guided seed's choices come from.
    package static let streamName = "world.guide"

    /// The block of `seed` in a sweep starting at `origin`: its first seed and its end.
    package static func block(of seed: UInt64, origin: UInt64) -> SeedRange {
        let index = (seed - origin) / blockSize
        let low = origin + index * blockSize
        return SeedRange(low: low, high: low &+ blockSize < low ? .max : low + blockSize)
    }

    /// Whether `seed` draws blind (the first seeds of its block).
    package static func isBlind(_ seed: UInt64, origin: UInt64) -> Bool {
        (seed - origin) % blockSize < blindSeeds
    }

    /// What a seed reached, as keys a corpus compares: `trigger:onBid:x4` (calls rounded down to a
    /// power of 4), `rule:honors/{id}:denied`, `goal:…`, `check:…`.
    package static func keys(_ result: SweepSeedResult) -> Set<String> {
        var keys = Set<String>()
        for entry in result.coverage ?? [] where entry.invocations > 0 {
            var bucket = 1
            while bucket * 4 <= entry.invocations { bucket *= 4 }
            keys.insert("\(entry.kind):\(entry.name):x\(bucket)")
            if entry.failures > 0 { keys.insert("\(entry.kind):\(entry.name):failed") }
        }
        for goal in result.reached { keys.insert("goal:\(goal)") }
        for check in result.checked { keys.insert("check:\(check)") }
        if let failure = result.failure { keys.insert("failed:\(failure.check ?? failure.kind.rawValue)") }
        return keys
    }

    /// The corpus of a block: in seed order, the worlds of the samples that added a key.
    package static func corpus(_ samples: [GuideSample]) -> [World] {
        var seen = Set<String>()
        var corpus: [World] = []
        for sample in samples.sorted(by: { $0.seed < $1.seed }) {
            let new = sample.keys.subtracting(seen)
            guard !new.isEmpty else { continue }
            seen.formUnion(new)
            corpus.append(sample.world)
        }
        return corpus
    }

    /// The world of guided seed `seed`: a mutation of a corpus world, or (one time in three, or
    /// with an empty corpus) `blind`.
    package static func world(seed: UInt64, corpus: [World], scenario: any Scenario, pinned: [String: Int], drawsFaults: Bool, blind: World) -> World {
        var random = RandomStreams(seed: seed).stream(named: streamName)
        guard !corpus.isEmpty, random.below(3) != 0 else { return blind }
        let parent = corpus[random.below(corpus.count)]
        for _ in 0..<8 {
            let child = mutate(parent, scenario: scenario, pinned: pinned, drawsFaults: drawsFaults, random: &random)
            let cost = WorldDraw.cost(child.parameters, scenario: scenario)
            if isValid(child, scenario: scenario, pinned: pinned), WorldDraw.unit(&random) * cost < 1 { return child }
        }
        return blind
    }

    /// `parent` with one to three of its draws redrawn (parameters, fault knobs, outages).
    static func mutate(_ parent: World, scenario: any Scenario, pinned: [String: Int], drawsFaults: Bool, random: inout SimRandom) -> World {
        var child = parent
        let free = scenario.parameters.filter { pinned[$0.name] == nil && $0.drawn }
        let knobs = drawsFaults ? scenario.worldKnobs.faults : []
        for _ in 0...random.below(3) {
            if knobs.isEmpty || free.isEmpty == false && random.below(3) != 0 {
                guard !free.isEmpty else { break }
                let spec = free[random.below(free.count)]
                let value = WorldDraw.value(spec, random: &random)
                child.parameters[spec.name] = value == spec.defaultValue ? nil : value
            } else {
                let knob = knobs[random.below(knobs.count)]
                child.faults[knob.name] = WorldDraw.drawFaults([knob], random: &random)[knob.name]
            }
        }
        return child
    }

    /// Whether `world` keeps every constraint with `pinned`.
    static func isValid(_ world: World, scenario: any Scenario, pinned: [String: Int]) -> Bool {
        var values = Dictionary(uniqueKeysWithValues: scenario.parameters.map { ($0.name, $0.defaultValue) })
        values.merge(world.parameters) { _, drawn in drawn }
        values.merge(pinned) { _, pin in pin }
        return (try? scenario.validate(ScenarioParameters(values: values))) != nil
    }
}

/// One blind seed of a guided block, kept until its block's corpus is made.
package struct GuideSample: Sendable, Hashable, Codable {
    /// The seed.
    package var seed: UInt64
    /// Its world.
    package var world: World
    /// What it reached (`WorldGuide.keys`).
    package var keys: Set<String>

    /// A sample of `seed`, which ran `world` and reached `keys`.
    package init(seed: UInt64, world: World, keys: Set<String>) {
        self.seed = seed
        self.world = world
        self.keys = keys
    }
}
