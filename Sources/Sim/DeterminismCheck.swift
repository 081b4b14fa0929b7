/// Runs one configuration twice and compares the traces: the kernel's self-check, and the
/// nondeterminism check of a sweep (like FoundationDB's). On a mismatch it names the first
/// divergent trace entry with both versions.
public enum DeterminismCheck {
    /// The verdict of one check.
    public struct Verdict: Sendable {
        /// The seed that ran twice.
        public var seed: UInt64
        /// The first run's trace hash.
        public var first: TraceHash
        /// The second run's trace hash.
        public var second: TraceHash
        /// The first trace entries that differ (nil, nil when the hashes match; one nil when a
        /// trace ended early).
        public var divergence: (index: Int, first: TraceEvent?, second: TraceEvent?)?
        /// True when both runs hashed the same.
        public var isDeterministic: Bool { first == second }
        /// Steps of the first run.
        public var steps: UInt64

        /// One line for a terminal or a report.
        public var summary: String {
            guard let divergence else {
                return isDeterministic ? "seed \(seed): deterministic (\(first))" : "seed \(seed): hashes differ"
            }
            func show(_ event: TraceEvent?) -> String { event?.jsonLine ?? "<trace ended>" }
            return "seed \(seed): runs diverge at trace entry \(divergence.index): first run \(show(divergence.first)), second run \(show(divergence.second))"
        }
    }

    /// Runs `body` twice under `configuration`; records full traces only when the hashes differ
    /// (a third and fourth run), so the common case costs two plain runs.
    public static func check<Output: Sendable>(
        _ configuration: SimulationConfiguration,
        _ body: @escaping @Sendable () async throws -> Output
    ) -> Verdict {
        let a = Simulation.run(configuration, body)
        let b = Simulation.run(configuration, body)
        var verdict = Verdict(seed: configuration.seed, first: a.traceHash, second: b.traceHash, divergence: nil, steps: a.steps)
        if a.traceHash != b.traceHash {
            var recording = configuration
            recording.recordsTrace = true
            let c = Simulation.run(recording, body)
            let d = Simulation.run(recording, body)
            verdict.divergence = firstDivergence(c.trace, d.trace)
        }
        return verdict
    }

    /// The first index at which two traces differ, with both entries.
    public static func firstDivergence(_ a: [TraceEvent], _ b: [TraceEvent]) -> (index: Int, first: TraceEvent?, second: TraceEvent?)? {
        let common = min(a.count, b.count)
        for index in 0..<common where a[index] != b[index] {
            return (index, a[index], b[index])
        }
        if a.count == b.count { return nil }
        return (common, common < a.count ? a[common] : nil, common < b.count ? b[common] : nil)
    }
}
