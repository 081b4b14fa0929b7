/// Which worlds a sweep ran and which failed, per parameter and fault knob, in five bands each
/// (the minimum, below the default, the default, above it, the maximum) and per outage kind (on or
/// off). Sums of integers, so shards merge into the same numbers as one machine's sweep.
package struct WorldCoverage: Sendable, Hashable, Codable {
    /// Seeds run and failed in one band.
    package struct Band: Sendable, Hashable, Codable {
        /// Seeds whose world fell in the band.
        package var seeds: Int = 0
        /// Of those, seeds that failed.
        package var failures: Int = 0
    }

    /// The five bands of a value against a range and a default.
    package enum Position: String, Sendable, Hashable, Codable, CaseIterable {
        case minimum, belowDefault = "below-default", atDefault = "default", aboveDefault = "above-default", maximum

        /// Where `value` falls.
        static func of(_ value: Double, minimum: Double, defaultValue: Double, maximum: Double) -> Position {
            if value == defaultValue { return .atDefault }
            if value <= minimum { return .minimum }
            if value >= maximum { return .maximum }
            return value < defaultValue ? .belowDefault : .aboveDefault
        }
    }

    /// Parameter → band → seeds and failures.
    package var parameters: [String: [String: Band]] = [:]
    /// Fault knob → band → seeds and failures (the default band: the scenario's own rate).
    package var faults: [String: [String: Band]] = [:]
    /// Outage kind → "on"/"off" → seeds and failures.
    package var outages: [String: [String: Band]] = [:]

    /// Nothing recorded.
    package init() {}

    /// Adds one seed that ran `world` (nil: the default world) of `scenario`.
    package mutating func add(_ world: World?, failed: Bool, scenario: any Scenario) {
        for spec in scenario.parameters {
            let value = Double(world?.parameters[spec.name] ?? spec.defaultValue)
            let band = Position.of(value, minimum: Double(spec.minimum), defaultValue: Double(spec.defaultValue), maximum: Double(spec.maximum))
            count(&parameters[spec.name, default: [:]], band.rawValue, failed: failed)
        }
        for knob in scenario.worldKnobs.faults {
            let band = world?.faults[knob.name].map {
                Position.of($0, minimum: 0, defaultValue: knob.defaultRate, maximum: knob.ceiling)
            } ?? .atDefault
            count(&faults[knob.name, default: [:]], band.rawValue, failed: failed)
        }
        for service in scenario.worldKnobs.outages {
            let on = world?.outages.contains { $0.service == service } ?? false
            count(&outages[service, default: [:]], on ? "on" : "off", failed: failed)
        }
    }

    /// Adds another shard's coverage.
    package mutating func add(_ other: WorldCoverage) {
        Self.merge(&parameters, other.parameters)
        Self.merge(&faults, other.faults)
        Self.merge(&outages, other.outages)
    }

    private func count(_ bands: inout [String: Band], _ band: String, failed: Bool) {
        bands[band, default: Band()].seeds += 1
        if failed { bands[band, default: Band()].failures += 1 }
    }

    private static func merge(_ into: inout [String: [String: Band]], _ other: [String: [String: Band]]) {
        for (name, bands) in other {
            for (band, counts) in bands {
                into[name, default: [:]][band, default: Band()].seeds += counts.seeds
                into[name, default: [:]][band, default: Band()].failures += counts.failures
            }
        }
    }
}
