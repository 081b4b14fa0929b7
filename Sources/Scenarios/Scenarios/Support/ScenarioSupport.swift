import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// Set-up and client behaviour shared by the scenarios of every app: variant selection,
/// arrivals, waits and the client retry policy.
enum ScenarioSupport {
    /// The variant of type `V` the run selected (`careful` when none); the runner validated the name.
    static func variant<V: AppVariant>(_ context: ScenarioContext, _ type: V.Type) -> V {
        variant(named: context.variant, type)
    }

    /// The variant `name` of type `V` (`careful` when nil); the caller validated the name.
    static func variant<V: AppVariant>(named name: String?, _ type: V.Type) -> V {
        do { return try V.named(name) } catch { preconditionFailure("variant validated by the runner: \(error)") }
    }

    /// The names of `variants`, in the given order (what `Scenario.variants` lists).
    static func variants<V: AppVariant>(_ variants: [V]) -> [String] { variants.map(\.rawValue) }

    /// Sorted arrivals of `count` operations spread evenly at random over `durationSeconds`.
    static func arrivals(count: Int, durationSeconds: Int, random: inout SimRandom, origin: UInt64) -> [UInt64] {
        KNBScenarioSupport.arrivals(count: count, durationSeconds: durationSeconds, burstPercent: 0, random: &random, origin: origin)
    }

    /// The invocations of `function` the platform terminated (its instance crashed, or it ran
    /// past its timeout), by what the fault ledger names after the function: a trigger's document
    /// path, a scheduled run's `CloudScheduler.target(tick)`, with a count each (`kinds`: crashes,
    /// timeouts or both). The platform's record, not the app's: checks read it to know what a
    /// terminated invocation may have left undone.
    static func terminatedInvocations(
        _ backend: Backend, function: String, by kinds: Set<FaultKind> = [.functionCrash, .functionTimeout]
    ) -> [String: Int] {
        var counts: [String: Int] = [:]
        let names = Set(kinds.map(\.rawValue))
        for event in terminations(backend, of: function) where names.contains(event.kind) {
            counts[String(event.subject.dropFirst(function.count + 1)), default: 0] += 1
        }
        return counts
    }

    /// When the platform terminated invocations of `function` (its instance crashed, or it ran
    /// past its timeout), in the backend's time, in order: for checks that owe a later send the
    /// wait such a termination costs (the next run, a claim's lease).
    static func terminationTimes(_ backend: Backend, function: String) -> [Timestamp] {
        let epoch = backend.env.clock.epochUnixNanoseconds
        return terminations(backend, of: function).map { Timestamp(unixNanoseconds: epoch + $0.elapsedNanoseconds) }
    }

    /// How many events of `function` the platform held back (`trigger-late`), by document.
    static func lateDeliveries(_ backend: Backend, function: String) -> [String: Int] {
        let prefix = function + " "
        var counts: [String: Int] = [:]
        for event in backend.faultLedger.lateDeliveries where event.subject.hasPrefix(prefix) {
            counts[String(event.subject.dropFirst(prefix.count)), default: 0] += 1
        }
        return counts
    }

    /// The ledger's terminations of `function`: subjects "`function`" or "`function` `target`".
    private static func terminations(_ backend: Backend, of function: String) -> [FaultLedger.Event] {
        let prefix = function + " "
        return backend.faultLedger.terminations.filter { $0.subject == function || $0.subject.hasPrefix(prefix) }
    }

    /// Sleeps until the virtual instant `nanoseconds` (no-op if it has passed).
    static func sleep(until nanoseconds: UInt64) async { await KNBScenarioSupport.sleep(until: nanoseconds) }

    /// Sleeps `milliseconds` of virtual time.
    static func sleep(milliseconds: Int) async {
        guard milliseconds > 0 else { return }
        try? await SimClock().sleep(for: .milliseconds(milliseconds))
    }

    /// Runs `body` with the client retry policy (`ClientRetry`) on the simulator's clock: transient
    /// errors (UNAVAILABLE, DEADLINE_EXCEEDED, also inside an app's error) are retried.
    static func retrying<T>(attempts: Int = 3, _ body: () async throws -> T) async throws -> T {
        try await ClientRetry.simulated(attempts: attempts, body)
    }
}
