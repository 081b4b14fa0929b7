/// Named bounds of the scenario layer; hitting one truncates (and the report says so), never hangs.
package enum ScenarioLimits {
    /// Latency samples kept per run (histograms still count every operation).
    package static let maxLatencySamples = 200_000
    /// Timeline entries kept per run.
    package static let maxTimelineEntries = 5_000
    /// Points of the latency-over-time series kept per operation in a report.
    package static let maxSeriesPoints = 400
    /// Seeds in one fuzz sweep.
    package static let maxSweepSeeds = 1_000_000
    /// Bytes of one input file (report, artifact, shard result, event log) read into memory.
    package static let maxInputBytes = 256 << 20
    /// Largest report, failure artifact or sweep result read back (`replay`, `shrink`, `merge`,
    /// `compare`): the largest a run writes is a few MB, and decoding this much takes seconds.
    package static let maxArtifactBytes = 32 << 20
    /// The largest latency a threshold may name: one year (thresholds are in nanoseconds, and a
    /// simulated run is bounded far below this anyway).
    package static let maxThresholdNanoseconds: UInt64 = 365 * 24 * 3_600 * 1_000_000_000
}
