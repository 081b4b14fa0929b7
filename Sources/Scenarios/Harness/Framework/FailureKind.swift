/// Why a run or a sweep's seed failed, as reports, sweep results and failure artifacts record it
/// (the raw values are the JSON strings, unchanged from before the type).
public enum FailureKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// An Always or Eventually check was violated.
    case invariant
    /// The kernel ended the run: deadlock, step or time limit, an escape, the root task threw.
    case kernel
    /// The harness itself was wrong (e.g. a scenario built no backend, so its faults never applied).
    case harness
    /// A latency threshold was missed.
    case threshold
    /// A load run left iterations running past its drain time-out.
    case load
    /// The real server a load run drove stopped answering: the run stopped there, and its report
    /// covers the load until then (incomplete; the CLI exits 3).
    case server
    /// The seed killed its worker process (a trap, a signal).
    case crash
    /// The same seed ran twice gave two trace hashes.
    case nondeterminism

    /// The JSON string.
    public var description: String { rawValue }
}
