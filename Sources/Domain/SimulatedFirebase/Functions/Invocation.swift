import Synchronization

/// One running invocation of a Cloud Function (MODEL_RULES §20; docs/domain.md, "Function
/// life cycle"): its deadline (the function's execution timeout) and, when its instance dies
/// mid-run, the admin call it dies at. The invocation is a task-local of the handler's task, so
/// every admin-SDK write, transaction commit, FCM send and SendGrid call the handler makes (its
/// child tasks included) refuses to act once the invocation is terminated: the writes it made
/// before stay, nothing after lands.
final class Invocation: Sendable {
    /// The invocation the current task runs in (nil outside a function).
    @TaskLocal static var current: Invocation?

    /// Why an invocation stopped before its handler returned.
    enum Termination: Sendable, Hashable {
        /// It ran past its execution timeout.
        case timeout
        /// Its instance crashed or was evicted mid-run.
        case crash
    }

    /// The function's name (for the ledger and the lost-event note).
    let function: String
    /// What the ledger names when it ends it: the function and, for a trigger, the document.
    let subject: String
    /// When its execution timeout ends it.
    let deadline: Timestamp
    private struct State {
        /// Admin calls that got through so far.
        var calls = 0
        var termination: Termination?
    }
    private let state = Mutex(State())
    /// Admin calls that get through before the instance dies (nil: it does not die).
    private let crashAfterCalls: Int?
    private let ledger: FaultLedger
    private let clock: DomainClock

    init(function: String, subject: String, deadline: Timestamp, crashAfterCalls: Int?, ledger: FaultLedger, clock: DomainClock) {
        self.function = function
        self.subject = subject
        self.deadline = deadline
        self.crashAfterCalls = crashAfterCalls
        self.ledger = ledger
        self.clock = clock
    }

    /// How it was terminated, if it was (after `finish`, including a crash or timeout at the end).
    var termination: Termination? { state.withLock { $0.termination } }

    /// Before an admin call, FCM send or SendGrid call acts: INTERNAL once the invocation is
    /// terminated (by its timeout, now past, or by its instance dying at this call).
    func admit() throws(BackendError) {
        let now = clock.now
        let crashAt = crashAfterCalls
        let (newly, termination) = state.withLock { state -> (Bool, Termination?) in
            if let termination = state.termination { return (false, termination) }
            if now > deadline {
                state.termination = .timeout
                return (true, .timeout)
            }
            if let crashAt, state.calls >= crashAt {
                state.termination = .crash
                return (true, .crash)
            }
            state.calls += 1
            return (false, nil)
        }
        if newly, let termination { record(termination) }
        if let termination { throw .internal("\(function) was \(termination == .timeout ? "terminated at its timeout" : "on an instance that crashed"); nothing after that point ran") }
    }

    /// The handler returned: an instance that was to die after more calls than it made dies
    /// before the invocation reports success, and a handler that outlived its timeout was
    /// terminated at it. Returns how the invocation ended (nil: it succeeded).
    func finish() -> Termination? {
        let now = clock.now
        let (newly, termination) = state.withLock { state -> (Bool, Termination?) in
            if let termination = state.termination { return (false, termination) }
            if now > deadline {
                state.termination = .timeout
            } else if crashAfterCalls != nil {
                state.termination = .crash
            }
            return (state.termination != nil, state.termination)
        }
        if newly, let termination { record(termination) }
        return termination
    }

    private func record(_ termination: Termination) {
        switch termination {
        case .timeout: ledger.observeTermination(.functionTimeout, subject: subject)
        case .crash: ledger.observeTermination(.functionCrash, subject: subject)
        }
    }

    /// `admit()` of the current task's invocation, if it runs in one.
    static func admitCurrent() throws(BackendError) {
        guard let invocation = current else { return }
        try invocation.admit()
    }
}
