import Foundation
import Histogram
import Sim

/// The result of a sweep or of one shard of it (`rehearse fuzz --shard`), written as a shard
/// result JSON; `merge` combines shards into the result a single machine would have produced.
package struct SweepResult: Sendable, Codable {
    /// The `schemaVersion` this build writes and reads.
    package static let currentSchemaVersion = 3

    /// A check the sweep's parameters rule out, and why (e.g. "sniperPercent=0 (needs >= 1)").
    package struct UnreachableCheck: Sendable, Hashable, Codable {
        /// The check's name.
        package var name: String
        /// Why the parameters rule it out.
        package var reason: String
    }

    /// One operation's latency over the sweep: a mergeable HdrHistogram (µs) and its summary.
    /// In the file, `histogram` is HdrHistogram's standard compressed encoding, base64
    /// (`HdrHistogramCodec`), which decoding validates.
    package struct OperationLatency: Sendable, Codable {
        /// The operation measured.
        package var operation: String
        /// Its latencies over the sweep, in µs.
        package var histogram: Histogram<UInt64>
        /// The summary is the canonical histogram's (`HdrHistogramCodec.canonical`, what the file
        /// holds): each percentile the top of its bucket, so it is the same computed from the
        /// recorded histogram or from one read back, whatever exact extremes were recorded.
        /// Computed when read, not at every seed a sweep adds (that once cost the fuzz parent a
        /// third of a worker's CPU).
        package var count: UInt64 { histogram.totalCount }
        /// Median, as the canonical histogram gives it.
        package var p50Microseconds: UInt64 { Self.percentile(50, of: histogram) }
        /// 99th percentile, as the canonical histogram gives it.
        package var p99Microseconds: UInt64 { Self.percentile(99, of: histogram) }
        /// Slowest sample.
        package var maxMicroseconds: UInt64 { histogram.max }
        /// The summary fields of an entry: as a file stated them, or as the histogram gives them.
        struct Summary: Equatable {
            var count, p50Microseconds, p99Microseconds, maxMicroseconds: UInt64
        }
        /// The summary a file stated, nil when built here: validation refuses a file whose
        /// summary is not its histogram's.
        var stated: Summary?
        /// The summary the histogram gives.
        var summary: Summary { Summary(count: count, p50Microseconds: p50Microseconds, p99Microseconds: p99Microseconds, maxMicroseconds: maxMicroseconds) }

        init(operation: String, histogram: Histogram<UInt64>) {
            self.operation = operation
            self.histogram = histogram
        }

        /// `percentile` of `histogram` as its canonical form gives it: the top of the bucket
        /// (this library clamps to the exact extremes recorded, which the encoding does not keep).
        static func percentile(_ percentile: Double, of histogram: Histogram<UInt64>) -> UInt64 {
            histogram.totalCount == 0 ? 0 : histogram.highestEquivalentForValue(histogram.valueAtPercentile(percentile))
        }

        private enum CodingKeys: String, CodingKey { case operation, count, p50Microseconds, p99Microseconds, maxMicroseconds, histogram }

        /// Reads an entry; the histogram must be a valid compressed encoding.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            operation = try container.decode(String.self, forKey: .operation)
            stated = Summary(
                count: try container.decode(UInt64.self, forKey: .count),
                p50Microseconds: try container.decode(UInt64.self, forKey: .p50Microseconds),
                p99Microseconds: try container.decode(UInt64.self, forKey: .p99Microseconds),
                maxMicroseconds: try container.decode(UInt64.self, forKey: .maxMicroseconds))
            let text = try container.decode(String.self, forKey: .histogram)
            do { histogram = try HdrHistogramCodec.decode(text) } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .histogram, in: container, debugDescription: "not an HdrHistogram V2 compressed encoding: \(error.description)")
            }
        }

        /// Writes the summary and the compressed histogram.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(operation, forKey: .operation)
            try container.encode(count, forKey: .count)
            try container.encode(p50Microseconds, forKey: .p50Microseconds)
            try container.encode(p99Microseconds, forKey: .p99Microseconds)
            try container.encode(maxMicroseconds, forKey: .maxMicroseconds)
            try container.encode(HdrHistogramCodec.encode(histogram), forKey: .histogram)
        }
    }

    /// The file format version (`currentSchemaVersion`).
    package var schemaVersion = SweepResult.currentSchemaVersion
    /// The scenario swept.
    package var scenario: String
    /// The strategy asked for (`portfolio` picks per seed).
    package var strategy: String
    /// The Domain variant, nil for the careful design.
    package var variant: String?
    /// Parameters given explicitly.
    package var parameters: [String: Int]
    /// Whether each seed drew its swarm of faults.
    package var swarm: Bool
    /// The seed ranges this result covers (one per shard merged), sorted.
    package var ranges: [SeedRange]
    /// "i/n" when this is one shard's result.
    package var shard: String?
    /// Seeds run.
    package var seedsRun: Int
    /// Seeds that passed.
    package var seedsPassed: Int
    /// Every failing seed, with its artifact.
    package var failures: [SweepFailure]
    /// Seeds run twice for the nondeterminism check.
    package var determinismChecked: [UInt64]
    /// Every Sometimes goal of the scenario, and those some seed reached.
    package var goals: [String]
    /// Goals some seed reached.
    package var reached: [String]
    /// Every Always/Eventually check of the scenario, and those some seed evaluated.
    package var checks: [String]
    /// Always/Eventually checks some seed evaluated.
    package var checked: [String]
    /// Checks (of any kind) the sweep's parameters make unreachable: they do not fail it.
    package var unreachable: [UnreachableCheck]
    /// Per operation, its latency over every seed.
    package var latency: [OperationLatency]
    /// Per fault kind over the seeds run: chances, expected and observed injections (absent in
    /// older files). A kind far off its expectation fails the sweep (`FaultObservation.verdict`):
    /// far below, the backend was kinder than it claims; far above with no other source named, it
    /// injects more than it claims.
    package var faults: [FaultObservation]?
    /// The binary the sweep ran.
    package var build: BuildFingerprint
    /// The range the sweep was asked to run (`ranges` lists the seeds that did run; they differ
    /// when the sweep stopped at a failure or was killed). Absent in older files.
    package var requested: SeedRange?
    /// The `--threshold` expressions of the sweep (a resume must use the same). Absent in older files.
    package var thresholds: [String]?
    /// Where this sweep's failure artifacts are (one folder per sweep). Absent in older files.
    package var failureDirectory: String?
    /// Thresholds `merge --threshold` evaluated over the merged histograms (absent when none).
    package var mergeThresholds: [RunReport.ThresholdResult]?
    /// The `--timing-window` the sweep was given, in nanoseconds (absent: the default window).
    package var timingWindowNanoseconds: UInt64?
    /// What the sweep exercised: backend functions, triggers, jobs and rules; goals per seed;
    /// strategies (absent in older files).
    package var coverage: SweepCoverage?
    /// How seeds picked their worlds (absent: the default world).
    package var world: WorldMode?
    /// Which worlds ran and failed, per parameter, fault knob and outage kind (absent: the default world).
    package var worlds: WorldCoverage?
    /// A guided sweep's record: where its blocks start, the corpus of each finished block, and the
    /// blind seeds' samples of blocks still open (absent unless `world` is guided).
    package var guide: GuideRecord?

    /// An empty result for a sweep over `range` (seeds are added as they run).
    package init(scenario: String, strategy: String, variant: String?, parameters: [String: Int], swarm: Bool, range: SeedRange,
                shard: String?, goals: [String], checks: [String] = [], unreachable: [UnreachableCheck] = [], build: BuildFingerprint) {
        self.scenario = scenario; self.strategy = strategy; self.variant = variant; self.parameters = parameters
        self.swarm = swarm; self.ranges = []; self.requested = range; self.shard = shard; self.seedsRun = 0; self.seedsPassed = 0
        self.failures = []; self.determinismChecked = []; self.goals = goals; self.reached = []; self.latency = []; self.build = build
        self.checks = checks; self.checked = []; self.unreachable = unreachable
    }

    /// The identity of one of this sweep's runs: a sweep is the family of runs that differ only
    /// in the seed (and, with `swarm`, the swarm each seed draws), so it stores no seed and keeps
    /// `swarm` as a flag in its file; each seed's identity is derived here.
    package func identity(seed: UInt64) -> RunIdentity {
        let definition = try? ScenarioRegistry.scenario(named: scenario)
        guard let mode = world, mode != .default else {
            return RunIdentity(
                scenario: scenario, seed: seed, strategy: strategy, variant: variant, parameters: parameters,
                swarm: swarm ? SwarmConfiguration.draw(seed: seed, kinds: definition?.swarmKinds ?? []) : nil)
        }
        // A failure records its world; another seed's is drawn again from the seed.
        let recorded = failures.first { $0.seed == seed }?.world
        let drawn = recorded ?? definition.flatMap { WorldDraw.draw(seed: seed, scenario: $0, pinned: parameters, drawsFaults: swarm) }
        return RunIdentity(scenario: scenario, seed: seed, strategy: strategy, variant: variant, parameters: parameters, world: drawn)
    }

    /// The `rehearse run` line of one of this sweep's seeds.
    package func runCommandLine(seed: UInt64) -> RunCommandLine {
        identity(seed: seed).commandLine(timingWindowNanoseconds: timingWindowNanoseconds)
    }

    /// Goals no seed reached though the parameters allow them (a sweep fails if any).
    package var unreachedGoals: [String] { goals.filter { !reached.contains($0) && !isUnreachable($0) } }
    /// Always/Eventually checks no seed evaluated though the parameters allow them: the sweep
    /// passed without exercising them, so it fails.
    package var neverChecked: [String] { checks.filter { !checked.contains($0) && !isUnreachable($0) } }
    /// Fault kinds whose count is off their expectation: far fewer than the backend drew, or far
    /// more with no other source named.
    package var offFaults: [FaultObservation] { (faults ?? []).filter(\.isOff) }
    /// True when no seed failed, every reachable goal was reached, every reachable check evaluated
    /// and every fault kind the backend injects was observed about as often as expected (or more,
    /// from a source it names).
    package var passed: Bool {
        failures.isEmpty && unreachedGoals.isEmpty && neverChecked.isEmpty && offFaults.isEmpty && (mergeThresholds ?? []).allSatisfy(\.passed)
    }

    private func isUnreachable(_ name: String) -> Bool { unreachable.contains { $0.name == name } }

    /// The coverage part of the verdict: goals never reached, checks never evaluated, and the
    /// checks the parameters rule out (with why); empty when there is nothing to say.
    package var coverageSummary: String {
        var parts: [String] = []
        if !unreachedGoals.isEmpty { parts.append("Sometimes goals never reached: \(unreachedGoals.joined(separator: ", "))") }
        if !neverChecked.isEmpty { parts.append("checks never evaluated (not-checked): \(neverChecked.joined(separator: ", "))") }
        if !offFaults.isEmpty {
            parts.append("fault counts off their expectation: " + offFaults.map(\.summary).joined(separator: ", "))
        }
        if !unreachable.isEmpty {
            parts.append("unreachable under these parameters (not failing): " + unreachable.map { "\($0.name) [\($0.reason)]" }.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    /// Adds one seed's result.
    package mutating func add(_ result: SweepSeedResult) {
        SeedRange.insert(result.seed, into: &ranges)
        seedsRun += 1
        if result.passed { seedsPassed += 1 }
        if let failure = result.failure { failures.append(failure); failures.sort { $0.seed < $1.seed } }
        if result.deterministic != nil { determinismChecked.append(result.seed); determinismChecked.sort() }
        reached = Array(Set(reached).union(result.reached)).sorted()
        checked = Array(Set(checked).union(result.checked)).sorted()
        if let seedFaults = result.faults { faults = FaultObservation.combining(faults ?? [], seedFaults) }
        addLatency(result.histograms)
        coverage = coverage ?? SweepCoverage()
        coverage!.add(result)
        if world != nil, world != .default, let definition = try? ScenarioRegistry.scenario(named: scenario) {
            worlds = worlds ?? WorldCoverage()
            worlds!.add(result.world, failed: !result.passed, scenario: definition)
        }
        if world == .guided, let origin = guide?.origin, WorldGuide.isBlind(result.seed, origin: origin) {
            guide!.samples.append(GuideSample(seed: result.seed, world: result.world ?? World(), keys: WorldGuide.keys(result)))
        }
    }

    private mutating func addLatency(_ histograms: [String: Histogram<UInt64>]) {
        // In place (no copy of a counts array per seed), kept sorted by operation.
        for operation in histograms.keys.sorted() {
            let histogram = histograms[operation]!
            if let index = latency.firstIndex(where: { $0.operation == operation }) {
                latency[index].histogram.add(histogram)
                latency[index].stated = nil
            } else {
                latency.append(OperationLatency(operation: operation, histogram: histogram))
                latency.sort { $0.operation < $1.operation }
            }
        }
    }

    /// Why two results cannot be merged.
    package struct MergeError: Error, CustomStringConvertible {
        /// Which field differs between the two results.
        package var description: String
    }

    /// Combines shard results of the same sweep (same scenario, strategy, variant, parameters,
    /// swarm); refuses overlapping ranges.
    package static func merge(_ results: [SweepResult]) throws(MergeError) -> SweepResult {
        guard var merged = results.first else { throw MergeError(description: "nothing to merge") }
        merged.shard = nil
        merged.failureDirectory = nil
        merged.mergeThresholds = nil
        // The shards' requested ranges joined, when they form one range (as one machine's run).
        let requested = results.compactMap(\.requested).sorted { $0.low < $1.low }
        merged.requested = nil
        if requested.count == results.count, var span = requested.first {
            for range in requested.dropFirst() where span.high == range.low { span.high = range.high }
            if span.high == requested.last?.high { merged.requested = span }
        }
        for other in results.dropFirst() {
            guard other.schemaVersion == currentSchemaVersion else { throw MergeError(description: "schemaVersion \(other.schemaVersion) is not \(currentSchemaVersion)") }
            guard other.scenario == merged.scenario, other.strategy == merged.strategy, other.variant == merged.variant,
                  other.parameters == merged.parameters, other.swarm == merged.swarm, (other.thresholds ?? []) == (merged.thresholds ?? []),
                  other.timingWindowNanoseconds == merged.timingWindowNanoseconds else {
                throw MergeError(description: "shard \(other.shard ?? "?") ran a different sweep (\(other.scenario) \(other.strategy) \(other.variant ?? "careful"))")
            }
            for range in other.ranges where merged.ranges.contains(where: { $0.low < range.high && range.low < $0.high }) {
                throw MergeError(description: "seed range \(range) overlaps another shard's")
            }
            merged.ranges = (merged.ranges + other.ranges).sorted { $0.low < $1.low }
            merged.seedsRun += other.seedsRun
            merged.seedsPassed += other.seedsPassed
            merged.failures = (merged.failures + other.failures).sorted { $0.seed < $1.seed }
            merged.determinismChecked = (merged.determinismChecked + other.determinismChecked).sorted()
            merged.reached = Array(Set(merged.reached).union(other.reached)).sorted()
            merged.checked = Array(Set(merged.checked).union(other.checked)).sorted()
            if let otherFaults = other.faults { merged.faults = FaultObservation.combining(merged.faults ?? [], otherFaults) }
            if let otherCoverage = other.coverage {
                merged.coverage = merged.coverage ?? SweepCoverage()
                merged.coverage!.add(otherCoverage)
            }
            merged.addLatency(Dictionary(other.latency.map { ($0.operation, $0.histogram) }, uniquingKeysWith: { first, _ in first }))
        }
        // Adjacent ranges read as one.
        var joined: [SeedRange] = []
        for range in merged.ranges {
            if let last = joined.last, last.high == range.low { joined[joined.count - 1].high = range.high } else { joined.append(range) }
        }
        merged.ranges = joined
        return merged
    }

    /// Sorted-keys JSON.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try! encoder.encode(self), as: UTF8.self) + "\n"
    }

}
