/// Named bounds of the scenario layer; hitting one truncates (and the report says so), never hangs.
public enum ScenarioLimits {
    /// Latency samples kept per run (histograms still count every operation).
    public static let maxLatencySamples = 200_000
    /// Timeline entries kept per run.
    public static let maxTimelineEntries = 5_000
    /// Points of the latency-over-time series kept per operation in a report.
    public static let maxSeriesPoints = 400
    /// Seeds in one fuzz sweep.
    public static let maxSweepSeeds = 1_000_000
}
