import Domain
import Histogram
import Sim

/// What one seed of a sweep produced, small enough to pass from a worker process on one line:
/// verdict, failure, Sometimes goals reached, the determinism check (if sampled) and latency
/// histograms (mergeable).
public struct SweepSeedResult: Sendable, Codable {
    public var seed: UInt64
    public var passed: Bool
    public var failure: SweepFailure?
    public var reached: [String]
    /// Always/Eventually checks this seed evaluated at least once.
    public var checked: [String]
    /// nil: not sampled; otherwise whether the two runs had the same trace.
    public var deterministic: Bool?
    /// Latency per operation, microseconds (as in `LatencySummary`).
    public var histograms: [String: Histogram<UInt64>]
    /// Per fault kind: chances, expected and observed injections in this seed (absent in old lines).
    public var faults: [FaultObservation]?
    /// Per declared callable, trigger, scheduled job and rule: this seed's invocations (absent in old lines).
    public var coverage: [CoverageCount]?
    /// The strategy the seed ran (a portfolio's member; absent in old lines and for crashes).
    public var strategy: String?

    public init(seed: UInt64, passed: Bool, failure: SweepFailure?, reached: [String], checked: [String] = [], deterministic: Bool?,
                histograms: [String: Histogram<UInt64>]) {
        self.seed = seed; self.passed = passed; self.failure = failure; self.reached = reached; self.checked = checked
        self.deterministic = deterministic; self.histograms = histograms
    }

    private enum CodingKeys: String, CodingKey { case seed, passed, failure, reached, checked, deterministic, histograms, faults, coverage, strategy }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seed = try container.decode(UInt64.self, forKey: .seed)
        passed = try container.decode(Bool.self, forKey: .passed)
        failure = try container.decodeIfPresent(SweepFailure.self, forKey: .failure)
        reached = try container.decode([String].self, forKey: .reached)
        checked = try container.decodeIfPresent([String].self, forKey: .checked) ?? []
        deterministic = try container.decodeIfPresent(Bool.self, forKey: .deterministic)
        faults = try container.decodeIfPresent([FaultObservation].self, forKey: .faults)
        coverage = try container.decodeIfPresent([CoverageCount].self, forKey: .coverage)
        strategy = try container.decodeIfPresent(String.self, forKey: .strategy)
        // Histograms travel in HdrHistogram's compressed encoding: a worker's line is a few KB,
        // not the ~100 KB of JSON count arrays that once cost the parent half a core to decode.
        var histograms: [String: Histogram<UInt64>] = [:]
        for (operation, text) in try container.decode([String: String].self, forKey: .histograms) {
            do { histograms[operation] = try HdrHistogramCodec.decode(text) } catch {
                throw DecodingError.dataCorruptedError(forKey: .histograms, in: container, debugDescription: "histogram of \(operation): \(error.description)")
            }
        }
        self.histograms = histograms
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seed, forKey: .seed)
        try container.encode(passed, forKey: .passed)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encode(reached, forKey: .reached)
        try container.encode(checked, forKey: .checked)
        try container.encodeIfPresent(deterministic, forKey: .deterministic)
        try container.encodeIfPresent(faults, forKey: .faults)
        try container.encodeIfPresent(coverage, forKey: .coverage)
        try container.encodeIfPresent(strategy, forKey: .strategy)
        try container.encode(histograms.mapValues(HdrHistogramCodec.encode), forKey: .histograms)
    }

    /// Latency histograms of `samples`, one per operation.
    public static func histograms(_ samples: [LatencySample]) -> [String: Histogram<UInt64>] {
        var result: [String: Histogram<UInt64>] = [:]
        for sample in samples {
            _ = result[sample.operation, default: Histogram<UInt64>(numberOfSignificantValueDigits: .three)]
                .record(max(1, sample.latencyNanoseconds / 1_000))
        }
        return result
    }
}

/// One failing seed in a sweep or shard result, pointing at its replayable artifact.
public struct SweepFailure: Sendable, Hashable, Codable {
    public var seed: UInt64
    /// `invariant`, `kernel`, `threshold`, `crash` or `nondeterminism`.
    public var kind: String
    public var check: String?
    public var step: UInt64?
    public var message: String
    /// Path of the failure artifact (`rehearse replay` it).
    public var artifact: String?
    /// Whether the artifact, read back from its JSON, replayed to the same check at the same step
    /// with the same trace hash (checked by the sweep before it reports the failure); nil where
    /// replay does not apply (crashes re-run in a child, nondeterminism) or in older files.
    public var replayed: Bool?

    public init(seed: UInt64, kind: String, check: String?, step: UInt64?, message: String, artifact: String?) {
        self.seed = seed; self.kind = kind; self.check = check; self.step = step; self.message = message; self.artifact = artifact
    }
}
