/// What client code shared by a scenario and its load profile reports while it runs: the
/// scenario's timeline and checks (`ScenarioContext`), or nothing (`SilentObserver`, load runs,
/// which measure latency and failures and check no invariants).
package protocol ClientObserver: Sendable {
    /// A timeline entry for `user` (built only when it is kept: a load run's observer keeps none).
    func note(_ user: String, _ event: @autoclosure () -> String)
    /// A timeline entry for `user` whose text `event` builds only when the timeline is read
    /// (`event` must depend only on what it captured).
    func note(_ user: String, rendering event: @escaping @Sendable () -> String)
    /// An Always check.
    func always(_ check: CheckDeclaration, _ condition: Bool, _ message: @autoclosure () -> String)
    /// A Sometimes goal.
    func sometimes(_ goal: CheckDeclaration, _ condition: Bool)
    /// True once the run should stop issuing operations.
    var isStopped: Bool { get }
}

extension ScenarioContext: ClientObserver {}

/// The observer of load runs: records nothing, never stops.
package struct SilentObserver: ClientObserver {
    /// An observer that records nothing.
    package init() {}
    package func note(_ user: String, _ event: @autoclosure () -> String) {}
    package func note(_ user: String, rendering event: @escaping @Sendable () -> String) {}
    package func always(_ check: CheckDeclaration, _ condition: Bool, _ message: @autoclosure () -> String) {}
    package func sometimes(_ goal: CheckDeclaration, _ condition: Bool) {}
    package var isStopped: Bool { false }
}
