import Synchronization

/// Counts which of a backend's declared Cloud Functions (callables, triggers, scheduled jobs)
/// and security rules ran, and how often, for coverage tables. Declared at registration (so code
/// that never ran shows with 0), counted where the backend dispatches: `Functions.invoke` and
/// `runScheduled`, the trigger dispatcher's deliveries, the scheduler's launches and every rules
/// evaluation of a client. A counter behind a lock: no await, no scheduling point, no randomness,
/// so counting never changes a trace.
public final class CoverageLedger: Sendable {
    private struct Tally {
        var invocations = 0
        var failures = 0
    }
    private let state = Mutex([CoverageKey: Tally]())

    /// An empty ledger.
    public init() {}

    /// `name` of `kind` exists in this backend (it shows in the table even if it never runs).
    public func declare(_ kind: CoverageKind, _ name: String) {
        state.withLock { state in
            let key = CoverageKey(kind: kind, name: name)
            if state[key] == nil { state[key] = Tally() }
        }
    }

    /// `name` of `kind` started once (counted before it runs, so one still running at the end
    /// of a run counts); `failed` when it is already known to fail (a rule that denied).
    public func count(_ kind: CoverageKind, _ name: String, failed: Bool = false) {
        state.withLock { state in
            let key = CoverageKey(kind: kind, name: name)
            state[key, default: Tally()].invocations += 1
            if failed { state[key, default: Tally()].failures += 1 }
        }
    }

    /// An invocation of `name` counted earlier threw.
    public func countFailure(_ kind: CoverageKind, _ name: String) {
        state.withLock { $0[CoverageKey(kind: kind, name: name), default: Tally()].failures += 1 }
    }

    /// Every declared or counted entry, sorted by kind then name: handler invocations (retries
    /// and duplicate deliveries included) or rule evaluations, and how many threw or denied (the
    /// harness's `CoverageEntry` carries them into reports and merges them).
    public var counts: [(kind: CoverageKind, name: String, invocations: Int, failures: Int)] {
        state.withLock { state in
            state.keys.sorted().map { key in (key.kind, key.name, state[key]!.invocations, state[key]!.failures) }
        }
    }
}
