import Histogram
import Sim

/// What one seed of a sweep produced, small enough to pass from a worker process on one line:
/// verdict, failure, Sometimes goals reached, the determinism check (if sampled) and latency
/// histograms (mergeable).
package struct SweepSeedResult: Sendable, Codable {
    /// The seed.
    package var seed: UInt64
    /// Whether it passed.
    package var passed: Bool
    /// Its failure, nil when it passed.
    package var failure: SweepFailure?
    /// Goals it reached.
    package var reached: [String]
    /// Always/Eventually checks this seed evaluated at least once.
    package var checked: [String]
    /// nil: not sampled; otherwise whether the two runs had the same trace.
    package var deterministic: Bool?
    /// Latency per operation, microseconds (as in `LatencySummary`); compressed on the wire.
    @CompressedHistograms public var histograms: [String: Histogram<UInt64>]
    /// Per fault kind: chances, expected and observed injections in this seed (absent in old lines).
    package var faults: [FaultObservation]?
    /// Per declared callable, trigger, scheduled job and rule: this seed's invocations (absent in old lines).
    package var coverage: [CoverageEntry]?
    /// The strategy the seed ran (a portfolio's member; absent in old lines and for crashes).
    package var strategy: String?
    /// The world the seed ran, when the sweep draws worlds.
    package var world: World?

    /// A seed's result with every field given.
    package init(seed: UInt64, passed: Bool, failure: SweepFailure?, reached: [String], checked: [String] = [], deterministic: Bool?,
                histograms: [String: Histogram<UInt64>]) {
        self.seed = seed; self.passed = passed; self.failure = failure; self.reached = reached; self.checked = checked
        self.deterministic = deterministic; self.histograms = histograms
    }

    /// Latency histograms of `samples`, one per operation.
    ///
    /// Each histogram is made wide enough for its largest sample up front: growing one sample at a
    /// time (auto-resize) appends counts through the dependency's unspecialised generic code, which
    /// is slow on a sweep worker's hot path. The width is not part of the result (the
    /// encoding writes the maximum's bucket; `HdrHistogramCodec.encode`), and the histogram still
    /// auto-resizes when merged with a wider one.
    package static func histograms(_ samples: [LatencySample]) -> [String: Histogram<UInt64>] {
        var values: [String: [UInt64]] = [:]
        for sample in samples { values[sample.operation, default: []].append(max(1, sample.latencyNanoseconds / 1_000)) }
        return values.mapValues { recorded in
            var histogram = Histogram<UInt64>(
                lowestDiscernibleValue: 1, highestTrackableValue: max(2, recorded.max() ?? 2), numberOfSignificantValueDigits: .three)
            histogram.autoResize = true
            for value in recorded { _ = histogram.record(value) }
            return histogram
        }
    }
}

/// One failing seed in a sweep or shard result, pointing at its replayable artifact.
package struct SweepFailure: Sendable, Hashable, Codable {
    /// The failing seed.
    package var seed: UInt64
    /// What failed: an invariant, the kernel, a threshold, a crash, nondeterminism.
    package var kind: FailureKind
    /// The violated check, for invariant failures.
    package var check: String?
    /// The step of the violation.
    package var step: UInt64?
    /// What failed, in one line.
    package var message: String
    /// Path of the failure artifact (`rehearse replay` it).
    package var artifact: String?
    /// Whether the artifact, read back from its JSON, replayed to the same check at the same step
    /// with the same trace hash (checked by the sweep before it reports the failure); nil where
    /// replay does not apply (crashes re-run in a child, nondeterminism) or in older files.
    package var replayed: Bool?
    /// The world the seed ran, when the sweep draws worlds.
    package var world: World?

    /// Whether the kernel ended the seed as a stuck job: never shrunk, since each try costs the
    /// stuck-job limit in wall time and abandons a thread.
    package var isStuckJob: Bool { kind == .kernel && message.hasPrefix(SimulationOutcome.stuckJobPrefix) }

    /// A failure with every field given (`replayed` unknown).
    package init(seed: UInt64, kind: FailureKind, check: String?, step: UInt64?, message: String, artifact: String?) {
        self.seed = seed; self.kind = kind; self.check = check; self.step = step; self.message = message; self.artifact = artifact
    }
}
