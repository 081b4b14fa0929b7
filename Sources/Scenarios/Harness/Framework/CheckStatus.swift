/// One check's status in one run (the raw values are report.json's strings).
public enum CheckStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// An Always or Eventually check held at every observation.
    case passed
    /// An Always or Eventually check failed (the run's violation).
    case violated
    /// An Always or Eventually check was never evaluated in this run.
    case notChecked = "not-checked"
    /// A Sometimes goal was reached.
    case reached
    /// A Sometimes goal was not reached in this run.
    case notReached = "not-reached"
    /// The run's parameters rule the check out (either kind).
    case unreachable

    /// The JSON string.
    public var description: String { rawValue }
}
