import Foundation
import Sim

/// Draws a seed's world (swarm testing over configurations: Groce et al., ISSTA 2012; FoundationDB's
/// randomized knobs): every parameter the user did not pin, from its documented range, favouring
/// what finds bugs — about a third the default, a third uniform (log-uniform over wide ranges), a
/// third edges (minimum, maximum, notable thresholds and their neighbours, related parameters equal
/// or adjacent); then, when asked, every fault knob and outage kind of the scenario's backend. A
/// draw never breaks a declared constraint, and costly worlds are drawn less often: a world is kept
/// with probability 1 / cost, its cost the product of `value / default` over `.linear` parameters
/// drawn above their defaults.
/// About 1.5 size parameters move per world (the rest of the sizes keep their defaults), so sizes
/// reach every corner of their ranges without all growing at once. Everything comes from the
/// seed's `world` stream, apart from every stream a run uses.
package enum WorldDraw {
    /// The stream world draws come from.
    package static let streamName = "world"
    /// Draws tried before falling back to the cheapest valid one.
    static let maxAttempts = 64
    /// Size parameters (`.linear` cost) a world draws on average; the others keep their defaults.
    static let movedSizes = 1.5

    /// The world of `seed` for `scenario` with `pinned` parameters kept; faults and outages too when
    /// `drawsFaults`. Nil when no draw satisfies the constraints with the pinned values (a bug in
    /// the scenario's declaration, or pins that leave no room).
    package static func draw(seed: UInt64, scenario: any Scenario, pinned: [String: Int], drawsFaults: Bool) -> World? {
        var random = RandomStreams(seed: seed).stream(named: streamName)
        guard var world = drawParameters(scenario, pinned: pinned, random: &random) else { return nil }
        if drawsFaults {
            let knobs = scenario.worldKnobs.faults
            world.faults = drawFaults(knobs.filter { !$0.drawnAfterOutages }, random: &random)
            world.outages = drawOutages(scenario.worldKnobs.outages, random: &random)
            world.faults.merge(drawFaults(knobs.filter(\.drawnAfterOutages), random: &random)) { early, _ in early }
        }
        return world
    }

    /// The estimated cost of `values` against the defaults: the product of `value / default` over
    /// `.linear` parameters drawn above their default (one drawn below never offsets another: fewer
    /// seconds for as many actions is more contention, not less work).
    package static func cost(_ values: [String: Int], scenario: any Scenario) -> Double {
        scenario.parameters.reduce(1.0) { product, spec in
            guard spec.cost == .linear, let value = values[spec.name] else { return product }
            return product * max(1, Double(value) / Double(max(spec.defaultValue, 1)))
        }
    }

    // MARK: Parameters

    static func drawParameters(_ scenario: any Scenario, pinned: [String: Int], random: inout SimRandom) -> World? {
        let defaults = Dictionary(uniqueKeysWithValues: scenario.parameters.map { ($0.name, $0.defaultValue) })
        var cheapest: (values: [String: Int], cost: Double)?
        for _ in 0..<maxAttempts {
            var values = defaults.merging(pinned) { _, pin in pin }
            let sizes = scenario.parameters.filter { $0.cost == .linear && pinned[$0.name] == nil && $0.drawn }.count
            for spec in scenario.parameters where pinned[spec.name] == nil && spec.drawn {
                // Sizes move together rarely: about `movedSizes` of them per world, each anywhere in its range.
                if spec.cost == .linear && random.below(sizes * 1_000) >= Int(movedSizes * 1_000) { continue }
                values[spec.name] = value(spec, random: &random)
            }
            relate(&values, scenario: scenario, pinned: pinned, random: &random)
            let resolved = ScenarioParameters(values: values)
            guard scenario.constraints.allSatisfy({ $0.isMet(by: resolved) }), (try? scenario.validate(resolved)) != nil else { continue }
            let cost = self.cost(values, scenario: scenario)
            if cheapest == nil || cost < cheapest!.cost { cheapest = (values, cost) }
            if unit(&random) * cost < 1 { return world(values, defaults: defaults, pinned: pinned) }
        }
        if let cheapest { return world(cheapest.values, defaults: defaults, pinned: pinned) }
        let fallback = defaults.merging(pinned) { _, pin in pin }
        guard (try? scenario.validate(ScenarioParameters(values: fallback))) != nil else { return nil }
        return World()
    }

    /// The drawn values that differ from the defaults.
    static func world(_ values: [String: Int], defaults: [String: Int], pinned: [String: Int]) -> World {
        World(parameters: values.filter { pinned[$0.key] == nil && defaults[$0.key] != $0.value })
    }

    /// One parameter's draw: default, uniform, or an edge.
    static func value(_ spec: ScenarioParameter, random: inout SimRandom) -> Int {
        switch random.below(3) {
        case 0: return spec.defaultValue
        case 1: return uniform(spec, random: &random)
        default:
            let edges = self.edges(spec)
            return edges[random.below(edges.count)]
        }
    }

    /// Uniform over the range, log-uniform when it spans two orders of magnitude (so a range of
    /// 10...86,400 seconds draws minutes and hours, not only days).
    static func uniform(_ spec: ScenarioParameter, random: inout SimRandom) -> Int {
        let low = max(spec.minimum, 1), high = spec.maximum
        if high >= 100 * low && high - spec.minimum > 200 {
            let exponent = log(Double(low)) + unit(&random) * (log(Double(high)) - log(Double(low)))
            return min(high, max(spec.minimum, Int(exp(exponent).rounded())))
        }
        return spec.minimum + random.below(spec.maximum - spec.minimum + 1)
    }

    /// The minimum, the maximum, their neighbours, twice and half the default, and each notable
    /// value with its neighbours, inside the range.
    static func edges(_ spec: ScenarioParameter) -> [Int] {
        var candidates = [spec.minimum, spec.minimum + 1, spec.maximum, spec.maximum - 1, spec.defaultValue * 2, spec.defaultValue / 2]
        for value in spec.notable { candidates += [value - 1, value, value + 1] }
        var seen = Set<Int>()
        return candidates.filter { spec.range.contains($0) && seen.insert($0).inserted }
    }

    /// Now and then sets one side of a related pair equal or next to the other.
    static func relate(_ values: inout [String: Int], scenario: any Scenario, pinned: [String: Int], random: inout SimRandom) {
        for constraint in scenario.constraints {
            guard let (a, b) = constraint.related, random.below(4) == 0 else { continue }
            let (target, source) = pinned[a] == nil ? (a, b) : (b, a)
            guard pinned[target] == nil, let spec = scenario.parameters.first(where: { $0.name == target }), let anchor = values[source] else { continue }
            let candidate = anchor + [-1, 0, 1][random.below(3)]
            if spec.range.contains(candidate) { values[target] = candidate }
        }
    }

    // MARK: Faults and outages

    /// Per knob: a third keep the scenario's rate, then off, uniform, several times the default, or the ceiling.
    static func drawFaults(_ knobs: [FaultKnob], random: inout SimRandom) -> [String: Double] {
        var rates: [String: Double] = [:]
        for knob in knobs {
            let choice = random.below(6)
            let multiple = [2.0, 4.0, 8.0][random.below(3)]
            let position = unit(&random)
            let rate: Double
            switch choice {
            case 0, 1: continue
            case 2: rate = 0
            case 3: rate = knob.ceiling * position
            case 4: rate = min(knob.ceiling, knob.defaultRate * multiple)
            default: rate = knob.ceiling
            }
            rates[knob.name] = (rate * 10_000).rounded() / 10_000
        }
        return rates
    }

    /// Per outage kind, on a third of seeds: starts per hour, lengths from seconds to hours, how hard.
    static func drawOutages(_ services: [String], random: inout SimRandom) -> [OutageDraw] {
        var outages: [OutageDraw] = []
        for service in services {
            let on = random.below(3) == 0
            let perHour = [0.5, 2, 6, (0.1 + unit(&random) * 5.9)][random.below(4)]
            let shortest = Int(exp(log(30.0) + unit(&random) * (log(900.0) - log(30.0))).rounded())
            let longest = Int(exp(log(Double(shortest)) + unit(&random) * (log(7_200.0) - log(Double(shortest)))).rounded())
            let severity = [1.0, 0.5, 0.2 + unit(&random) * 0.8][random.below(3)]
            let startsDown = random.below(3) == 0
            guard on else { continue }
            outages.append(OutageDraw(
                service: service, startsPerHour: (perHour * 100).rounded() / 100, shortestSeconds: shortest,
                longestSeconds: max(shortest, longest), severity: (severity * 100).rounded() / 100, startsDown: startsDown))
        }
        return outages
    }

    /// A number in [0, 1).
    static func unit(_ random: inout SimRandom) -> Double { Double(random.next() >> 11) / Double(1 << 53) }
}
