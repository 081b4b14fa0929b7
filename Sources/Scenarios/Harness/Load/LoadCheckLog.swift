import Synchronization

/// The checks a load profile judges: while the load runs (what users were told) and once it has
/// settled (the backend's state, read through the admin SDK, so from the server in real mode).
/// The same declarations as the scenario's, so a report names the same checks, and a run judged
/// against the simulated backend and against a real server can be compared check by check.
package final class LoadCheckLog: Sendable {
    private struct Entry {
        let declaration: CheckDeclaration
        var observations = 0
        var reached = false
        var firstViolation: String?
    }
    private let entries: Mutex<[Entry]>

    /// A log of `declarations`, reported in this order.
    package init(_ declarations: [CheckDeclaration]) {
        entries = Mutex(declarations.map { Entry(declaration: $0) })
    }

    /// One observation of an Always or Eventually check: `failure` nil when it held.
    package func always(_ check: CheckDeclaration, failure: String?) {
        always(check, observations: 1, firstFailure: failure)
    }

    /// `observations` observations of `check`, `firstFailure` the first that failed (nil: none).
    package func always(_ check: CheckDeclaration, observations: Int, firstFailure: String?) {
        update(check) { entry in
            entry.observations += observations
            if entry.firstViolation == nil { entry.firstViolation = firstFailure }
        }
    }

    /// One look at a Sometimes goal.
    package func sometimes(_ goal: CheckDeclaration, _ reached: Bool) {
        update(goal) { entry in
            entry.observations += 1
            entry.reached = entry.reached || reached
        }
    }

    private func update(_ check: CheckDeclaration, _ change: (inout Entry) -> Void) {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.declaration.name == check.name }) else {
                preconditionFailure("load check \(check.name) was not declared in the profile's log")
            }
            change(&entries[index])
        }
    }

    /// Each check's status, in declaration order.
    package var results: [RunReport.CheckResult] {
        entries.withLock { entries in
            entries.map { entry in
                let status: CheckStatus = switch entry.declaration.kind {
                case .sometimes: entry.reached ? .reached : .notReached
                case .always, .eventually: entry.observations == 0 ? .notChecked : entry.firstViolation == nil ? .passed : .violated
                }
                return RunReport.CheckResult(
                    name: entry.declaration.name, kind: entry.declaration.kind, summary: entry.declaration.summary,
                    status: status, observations: entry.observations)
            }
        }
    }

    /// The first violated check (in declaration order) and what it saw.
    package var firstViolation: (check: String, message: String)? {
        entries.withLock { entries in
            entries.first { $0.firstViolation != nil }.map { ($0.declaration.name, $0.firstViolation!) }
        }
    }
}
