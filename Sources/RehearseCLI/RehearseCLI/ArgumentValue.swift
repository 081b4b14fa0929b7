import ArgumentParser
import Harness
import Sim

/// The command line's typed values, parsed once where ArgumentParser reads them (`transform:`): a
/// malformed one is a usage error (exit 2, one line: "The value 'x' is invalid for '--opt <opt>':
/// why"), and no command re-parses a string after that. Durations are read by one grammar,
/// `DurationText`.
package enum ArgumentValue {
    /// Why a value is malformed (the parser prefixes the value and the option).
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// A seed range `A..<B` (at most `ScenarioLimits.maxSweepSeeds` seeds).
    static func seedRange(_ text: String) throws -> SeedRange {
        do { return try SeedRange(parsing: text) } catch { throw Malformed(description: error.description) }
    }

    /// A scheduling strategy as `--strategy` takes it.
    package static func strategy(_ text: String) throws -> SchedulingStrategy {
        guard let strategy = SchedulingStrategy(parsing: text) else {
            throw Malformed(description: "expected random, pct:D, pct:D:K, urw, portfolio, nonpreemptive or fifo")
        }
        return strategy
    }

    /// A duration of the one grammar (`DurationText`) in nanoseconds within `bounds`, which `range`
    /// words.
    static func nanoseconds(_ text: String, within bounds: ClosedRange<UInt64>, _ range: String) throws -> UInt64 {
        guard let nanoseconds = DurationText.nanoseconds(text) else { throw Malformed(description: DurationText.expected) }
        guard bounds.contains(nanoseconds) else { throw Malformed(description: "the duration must be \(range)") }
        return nanoseconds
    }

    /// A duration of the one grammar within `bounds` (nanoseconds), which `range` words.
    static func duration(_ text: String, within bounds: ClosedRange<UInt64>, _ range: String) throws -> Duration {
        DurationText.duration(nanoseconds: try nanoseconds(text, within: bounds, range))
    }

    /// A timing window: a duration from 0 to a minute.
    static func timingWindow(_ text: String) throws -> TimingWindow {
        TimingWindow(nanoseconds: try nanoseconds(text, within: 0...TimingWindow.maximumNanoseconds, "from 0 to 60s, such as 10ms, 250us or 0"))
    }

    /// A step limit: 1,000 to 10,000,000,000 scheduler steps.
    static func stepLimit(_ text: String) throws -> UInt64 {
        guard let steps = UInt64(text), (1_000...10_000_000_000).contains(steps) else {
            throw Malformed(description: "not a whole number of steps in 1000...10000000000")
        }
        return steps
    }

    /// A virtual-time limit: a duration from a second to 100 years, in whole seconds.
    static func virtualTimeLimit(_ text: String) throws -> Duration {
        let limit = try nanoseconds(text, within: second...(100 * 365 * 86_400 + 1) * second - 1, "from 1s to 100 years, such as 90m or 168h")
        return .seconds(limit / second)
    }

    /// A stuck-job limit: `off`, or a duration from a second to an hour, in whole seconds.
    static func stuckJobLimit(_ text: String) throws -> StuckJobLimit {
        if text == "off" { return StuckJobLimit(seconds: nil) }
        let limit = try nanoseconds(text, within: second...3_601 * second - 1, "from 1s to 1h (or off)")
        return StuckJobLimit(seconds: Int(limit / second))
    }

    private static let second: UInt64 = 1_000_000_000

    /// A scenario parameter `name=integer`.
    static func parameter(_ text: String) throws -> ParameterAssignment {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let value = Int(parts[1]) else {
            throw Malformed(description: ScenarioError.malformedParameter(text).description)
        }
        return ParameterAssignment(name: parts[0], value: value)
    }

    /// A latency threshold such as `placeBid.p99<2s` (its grammar is `Threshold`'s, which replay
    /// reads again from reports).
    static func threshold(_ text: String) throws -> Threshold {
        do { return try Threshold(parsing: text) } catch { throw Malformed(description: error.description) }
    }

    /// A shard `i/n` with 0 <= i < n <= `Limits.shards`.
    static func shard(_ text: String) throws -> ShardSelection {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, index >= 0, index < count else {
            throw Malformed(description: "expected i/n with 0 <= i < n, e.g. 0/4")
        }
        guard Limits.shards.contains(count) else {
            throw Malformed(description: "the shard count must be in \(Limits.shards.lowerBound)...\(Limits.shards.upperBound) (Limits.shards)")
        }
        return ShardSelection(index: index, count: count)
    }

    /// The highest arrival rate a load run takes, per second.
    static let maximumRate = 100_000.0

    /// An arrival rate (`50`, `50/s`, `600/m`, `0.5/s`, `3600/h`; 0 to 100,000 a second) in
    /// arrivals per second.
    static func rate(_ text: String) throws -> Double {
        var number = Substring(text), per = 1.0
        if let slash = text.firstIndex(of: "/") {
            number = text[..<slash]
            switch text[text.index(after: slash)...] {
            case "s": per = 1
            case "m": per = 60
            case "h": per = 3600
            default: number = ""
            }
        }
        guard let value = Double(number).map({ $0 / per }), value.isFinite, value >= 0, value <= maximumRate else {
            throw Malformed(description: "not a rate up to 100000/s, like 50/s or 600/m")
        }
        return value
    }

    /// k6 stages `duration:target,…` (1 to 100 stages, each a positive duration and a target ≥ 0).
    static func stages(_ text: String) throws -> [LoadStage] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 100 else { throw Malformed(description: "list 1 to 100 stages duration:target, like '30s:100,1m:500'") }
        return try parts.map { part in
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2, let nanoseconds = DurationText.nanoseconds(String(pieces[0])), nanoseconds > 0,
                  let target = Double(pieces[1]), target.isFinite, target >= 0 else {
                throw Malformed(description: "stage '\(part)' must be duration:target with a positive duration and a target ≥ 0, like 30s:100")
            }
            return LoadStage(duration: DurationText.duration(nanoseconds: nanoseconds), target: target)
        }
    }

    /// How long a load run's iterations keep starting: more than 0, at most a day.
    static func loadDuration(_ text: String) throws -> Duration {
        try duration(text, within: 1...24 * 3_600 * second, "more than 0 and at most 24h, such as 10s or 10m")
    }

    /// A closed model's pause after each iteration: 0 to an hour.
    static func thinkTime(_ text: String) throws -> Duration {
        try duration(text, within: 0...3_600 * second, "at most 1h, such as 100ms or 0")
    }

    /// How long a load run's last iterations may finish: 0 to an hour.
    static func gracefulStop(_ text: String) throws -> Duration {
        try duration(text, within: 0...3_600 * second, "at most 1h, such as 30s")
    }

    /// A fault knob's rate `name=probability`.
    static func fault(_ text: String) throws -> FaultAssignment {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let rate = Double(parts[1]), rate.isFinite, rate >= 0, rate <= 1 else {
            throw Malformed(description: "expected name=probability with a probability in 0...1, e.g. trigger-duplicate=0.05")
        }
        return FaultAssignment(name: parts[0], rate: rate)
    }

    /// An outage process `service:perHour:shortest:longest:severity[:down]`.
    static func outage(_ text: String) throws -> OutageDraw {
        guard let outage = OutageDraw(argument: text) else {
            throw Malformed(description: "expected service:perHour:shortestSeconds:longestSeconds:severity[:down], e.g. sendgrid:2:60:3600:1")
        }
        if let problem = outage.problem { throw Malformed(description: problem) }
        return outage
    }

    /// A world mode: default, swarm or guided.
    static func worldMode(_ text: String) throws -> WorldMode {
        guard let mode = WorldMode(rawValue: text) else {
            throw Malformed(description: "expected \(WorldMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
    }
}
