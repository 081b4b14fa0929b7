import ArgumentParser
import Harness
import Sim

/// The command line's typed values, parsed once where ArgumentParser reads them (`transform:`): a
/// malformed one is a usage error (exit 2, one line: "The value 'x' is invalid for '--opt <opt>':
/// why"), and no command re-parses a string after that.
enum ArgumentValue {
    /// Why a value is malformed (the parser prefixes the value and the option).
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// A seed range `A..<B` (at most `ScenarioLimits.maxSweepSeeds` seeds).
    static func seedRange(_ text: String) throws -> SeedRange {
        do { return try SeedRange(parsing: text) } catch { throw Malformed(description: error.description) }
    }

    /// A scheduling strategy as `--strategy` takes it.
    static func strategy(_ text: String) throws -> SchedulingStrategy {
        guard let strategy = SchedulingStrategy(parsing: text) else {
            throw Malformed(description: "expected random, pct:D, pct:D:K, urw, portfolio, nonpreemptive or fifo")
        }
        return strategy
    }

    /// A timing window: a duration from 0 to a minute.
    static func timingWindow(_ text: String) throws -> TimingWindow {
        guard let nanoseconds = DurationText.nanoseconds(text), nanoseconds <= TimingWindow.maximumNanoseconds else {
            throw Malformed(description: "not a duration from 0 to 60s such as 10ms, 250us or 0")
        }
        return TimingWindow(nanoseconds: nanoseconds)
    }

    /// A scenario parameter `name=integer`.
    static func parameter(_ text: String) throws -> ParameterAssignment {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let value = Int(parts[1]) else {
            throw Malformed(description: ScenarioError.malformedParameter(text).description)
        }
        return ParameterAssignment(name: parts[0], value: value)
    }

    /// A latency threshold such as `placeBid.p99<2s`.
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

    /// An arrival rate (`50`, `50/s`, `600/m`; 0 to 100,000 a second).
    static func rate(_ text: String) throws -> Double {
        do { return try LoadOptions.parseRate(text, option: "rate", allowZero: true) } catch {
            throw Malformed(description: "not a rate up to 100000/s, like 50/s or 600/m")
        }
    }

    /// k6 stages `duration:target,…`.
    static func stages(_ text: String) throws -> [LoadStage] { try LoadOptions.parseStages(text) }

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

    /// A duration of a load run (`10s`, `500ms`, `2m`, `1h`; not negative).
    static func duration(_ text: String) throws -> Duration {
        guard let duration = LoadOptions.parseDuration(text) else {
            throw Malformed(description: "not a duration with unit ms, s, m or h, e.g. 10s")
        }
        return duration
    }
}

/// A timing window as `--timing-window` takes it: timers due this close together are ordered by
/// the strategy.
struct TimingWindow: Hashable {
    /// The window.
    var nanoseconds: UInt64
    /// The widest window accepted (a minute: wider would reorder unrelated events).
    static let maximumNanoseconds: UInt64 = 60_000_000_000
}

/// One `--fault name=probability`.
struct FaultAssignment: Hashable {
    /// The knob's name.
    var name: String
    /// Its rate.
    var rate: Double

    /// Assignments as a dictionary (a later one of the same name wins).
    static func rates(_ assignments: [FaultAssignment]) -> [String: Double] {
        var rates: [String: Double] = [:]
        for assignment in assignments { rates[assignment.name] = assignment.rate }
        return rates
    }
}

/// One `--param name=value`.
struct ParameterAssignment: Hashable {
    /// The parameter's name.
    var name: String
    /// Its value.
    var value: Int

    /// Assignments as a dictionary (a later one of the same name wins).
    static func values(_ assignments: [ParameterAssignment]) -> [String: Int] {
        var values: [String: Int] = [:]
        for assignment in assignments { values[assignment.name] = assignment.value }
        return values
    }
}
