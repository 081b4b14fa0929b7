#if canImport(Glibc)
import Glibc
#endif
import DequeModule
import HeapModule
import Synchronization

/// The single-threaded core of one simulation: the ready set, the timer heap, virtual time,
/// the strategy's state and the trace.
///
/// Invariants: it is touched only on the thread that runs it (checked where a foreign thread
/// could reach it); virtual time never goes backwards; a timer never fires before its deadline;
/// same-time timers fire in insertion order. The cheap ones are preconditions on the hot path,
/// always on; `checkInvariants()` checks the whole structure after every mutation when the
/// configuration asks (`checksInternalInvariants`, `SIM_INTERNAL_CHECKS=1`; as swift-collections'
/// `_checkInvariants`; `.ci/run` runs the kernel's tests and a slice of every sweep that way).
final class Scheduler: @unchecked Sendable {
    /// Where a ready job came from (for the trace and for escape accounting).
    enum Origin: UInt8 {
        case actor, task, global, timer, foreign
    }

    /// A job and where it must run. The executor is held unowned: a pending actor job is a
    /// suspended task whose frame holds its actor (and so the executor) alive.
    struct ReadyJob: @unchecked Sendable {
        var job: UnownedJob
        /// The actor's executor, or nil for the task executor (nonisolated code).
        var executor: UnownedSerialExecutor?
        var ordinal: UInt32
        var origin: Origin
        /// The task the job belongs to: its runtime id, or for a job without one (the job
        /// `Task.yield()` enqueues) the task that was running when it was enqueued.
        var task: UInt64
    }

    /// The strategy without its payload, for the hot path.
    enum StrategyKind: UInt8 { case fifo, nonpreemptive, random, pct, urw, replay }

    enum TimerAction {
        case job(UnownedJob)
        case sleeper(SleepWaker)
    }

    struct Timer: Comparable {
        var deadline: UInt64
        var sequence: UInt64
        var action: TimerAction
        /// The task the timer wakes (for PCT's choice among nearly simultaneous timers).
        var task: UInt64

        static func < (lhs: Timer, rhs: Timer) -> Bool {
            lhs.deadline != rhs.deadline ? lhs.deadline < rhs.deadline : lhs.sequence < rhs.sequence
        }
        static func == (lhs: Timer, rhs: Timer) -> Bool {
            lhs.deadline == rhs.deadline && lhs.sequence == rhs.sequence
        }
    }

    let configuration: SimulationConfiguration
    let streams: RandomStreams
    @exclusivity(unchecked) private(set) var taskExecutor: SimTaskExecutor!
    @exclusivity(unchecked) private var unownedTaskExecutor: UnownedTaskExecutor!
    private let strategyKind: StrategyKind
    private let recordsTrace: Bool
    /// Timers due within this many nanoseconds of the earliest one are concurrent: the strategy
    /// picks which fires first (0: strictly by deadline).
    private let timingWindow: UInt64
    /// The simulation's thread: the one that created the scheduler, or the watched run's own
    /// (`adoptCurrentThread`, before the loop starts).
    @exclusivity(unchecked) private var thread: pthread_t

    // Scheduling state.
    @exclusivity(unchecked) private var ready = Deque<ReadyJob>()
    @exclusivity(unchecked) private var timers = Heap<Timer>()
    /// A timer due within the timing window, as `chooseAmongNearTimers` sees it: where it lies in
    /// the heap, and what it is ordered and chosen by. Plain integers, so collecting and sorting
    /// the candidates at every advance retains and releases nothing (the `Timer`s themselves
    /// carry a job or a waker, to retain on copying in and release on dropping again).
    struct NearTimer {
        var deadline: UInt64
        var sequence: UInt64
        var task: UInt64
        var heapIndex: Int
    }

    /// Scratch for `chooseAmongNearTimers` (kept to avoid an allocation per advance).
    @exclusivity(unchecked) private var nearTimers: [NearTimer] = []
    /// Heap positions to visit while collecting near timers, a queue read by position (kept to
    /// reuse its storage).
    @exclusivity(unchecked) private var timerQueue: [Int] = []
    #if DEBUG
    /// Near-timer walks so far, for the debug check's cadence.
    @exclusivity(unchecked) private var nearTimerChecks = 0
    #endif
    /// Choice points that were among timers (part of `decisions`).
    @exclusivity(unchecked) private(set) var timingDecisions: UInt64 = 0
    @exclusivity(unchecked) private var cancelledTimers = Set<UInt64>()
    @exclusivity(unchecked) private var timerSequence: UInt64 = 0
    @exclusivity(unchecked) private(set) var now: UInt64 = 0
    @exclusivity(unchecked) private(set) var steps: UInt64 = 0
    @exclusivity(unchecked) private var schedulerRandom: SimRandom
    @exclusivity(unchecked) private var pct: PCTState?
    /// URW's state (`.urw`), or the step counter of its measuring run.
    @exclusivity(unchecked) private(set) var urw: URWState?
    @exclusivity(unchecked) private var replayDecisions: [UInt32] = []
    @exclusivity(unchecked) private var replayCursor = 0
    /// The first choice point where the replayed log asked for a choice that did not exist.
    @exclusivity(unchecked) private(set) var replayDivergence: ReplayDivergence?
    @exclusivity(unchecked) private(set) var decisions: [UInt32] = []
    /// How many alternatives each choice point had, in log order (`recordsChoices` only).
    @exclusivity(unchecked) private(set) var choiceCounts: [UInt32] = []
    private let recordsChoices: Bool
    /// Choice points so far (`decisions.count` when they are recorded).
    @exclusivity(unchecked) private(set) var choicePoints = 0
    private let recordsDecisions: Bool
    /// The runtime id of the task whose job ran last (0 before the first).
    @exclusivity(unchecked) private var lastTask: UInt64 = 0

    // Identity and trace.
    @exclusivity(unchecked) private(set) var executorLabels = ActorLabels(first: "nonisolated")
    @exclusivity(unchecked) private(set) var hash = TraceHash()
    @exclusivity(unchecked) private(set) var events: [TraceEvent] = []
    @exclusivity(unchecked) private(set) var currentExecutorOrdinal: UInt32 = 0

    // Outcome.
    @exclusivity(unchecked) private(set) var rootFinished = false
    @exclusivity(unchecked) private(set) var rootError: (any Error)?
    @exclusivity(unchecked) private(set) var escapes: [SimulationOutcome.Escape] = []
    @exclusivity(unchecked) private(set) var liveNamedTasks: [UInt64: String] = [:]
    @exclusivity(unchecked) private var namedTaskSequence: UInt64 = 0
    @exclusivity(unchecked) private(set) var globalJobsCaptured: UInt64 = 0
    @exclusivity(unchecked) private(set) var timersFired: UInt64 = 0
    @exclusivity(unchecked) private(set) var realTimeSleepsSkipped: UInt64 = 0

    /// `Simulation.atEnd` actions, in registration order (run once, then dropped).
    @exclusivity(unchecked) private var endActions: [@Sendable () -> Void] = []

    private let foreignInbox = Mutex<[ReadyJob]>([])
    /// The tasks this run captured from the global executor (`ForeignJobRouter`).
    let taskClaims = Mutex(TaskClaims())
    /// Whether `ForeignJobRouter` lists this scheduler (simulation thread only).
    @exclusivity(unchecked) var claimsRegistered = false
    /// The task `ForeignJobRouter` claimed last: claiming it again changes nothing.
    @exclusivity(unchecked) var lastClaimedTask: UInt64 = 0
    private let foreignPending = Atomic<Bool>(false)

    /// Virtual time of the process monotonic clock while this simulation runs (see `ClockInterposer`).
    static let monotonicBaseNanoseconds: Int64 = 1_000 * 1_000_000_000

    init(configuration: SimulationConfiguration) {
        self.configuration = configuration
        self.streams = RandomStreams(seed: configuration.seed)
        #if canImport(Glibc)
        RandomInterposer.installed
        #endif
        // Not "scheduler": the domain's Cloud Scheduler has a stream of that name, and the two
        // would draw the same numbers (a strategy correlated with scheduled-job jitter).
        self.schedulerRandom = streams.stream(named: "sim.strategy")
        self.thread = pthread_self()
        self.recordsTrace = configuration.recordsTrace
        self.recordsDecisions = configuration.recordsDecisions
        self.recordsChoices = configuration.recordsChoices
        self.checksInvariants = configuration.checksInternalInvariants
        self.watchdog = nil
        self.timingWindow = configuration.timingWindowNanoseconds
        switch configuration.strategy.resolved(forSeed: configuration.seed) {
        case .fifo: strategyKind = .fifo
        case .nonpreemptive: strategyKind = .nonpreemptive
        case .random: strategyKind = .random
        case .pct(let depth, let horizon):
            precondition(depth == 1 || horizon != nil, "PCT's horizon is measured by Simulation.run before the scheduler starts")
            strategyKind = .pct
            pct = PCTState(depth: depth, horizon: horizon ?? 1, random: streams.stream(named: "sim.pct"))
        case .urw:
            strategyKind = .urw
            urw = URWState(estimates: configuration.taskStepEstimates, random: streams.stream(named: "sim.urw"))
        case .replay(let decisions):
            strategyKind = .replay
            replayDecisions = decisions
        case .portfolio:
            preconditionFailure("portfolio resolves to a member strategy")
        }
        if configuration.measuresTaskSteps { urw = URWState(estimates: [], random: streams.stream(named: "sim.urw")) }
        taskExecutor = SimTaskExecutor(scheduler: self)
        unownedTaskExecutor = taskExecutor.asUnownedTaskExecutor()
    }

    /// Moves a throwaway scheduler's time (the clock probe of `ClockInterposer.problem`; never a running one).
    func moveTimeForClockProbe(by nanoseconds: Int64) { now += UInt64(nanoseconds) }

    var monotonicNanoseconds: Int64 { Self.monotonicBaseNanoseconds + Int64(now) }
    var realtimeNanoseconds: Int64 { configuration.epochUnixNanoseconds + Int64(now) }

    // MARK: Enqueueing

    /// Registers a new actor executor and returns its ordinal (1, 2, … in creation order).
    func registerExecutor(label: String) -> UInt32 {
        executorLabels.append(label)
        return UInt32(executorLabels.count - 1)
    }

    /// Ordinals whose executor was parked (`SimExecutor.park()`) and not revived since, a bit each.
    @exclusivity(unchecked) private var parkedOrdinals: [UInt64] = []

    /// Records that the executor of `ordinal` is being dropped while its actor is parked.
    func parkExecutor(_ ordinal: UInt32) {
        precondition(ordinal > 0 && Int(ordinal) < executorLabels.count, "parking unknown executor \(ordinal)")
        let (word, bit) = Self.parkedBit(ordinal)
        if word >= parkedOrdinals.count { parkedOrdinals.append(contentsOf: repeatElement(0, count: word + 1 - parkedOrdinals.count)) }
        precondition(parkedOrdinals[word] & bit == 0, "executor \(ordinal) (\(executorLabels[Int(ordinal)])) parked twice")
        parkedOrdinals[word] |= bit
    }

    /// Records that the parked executor of `ordinal` is in use again (invariant: it was parked,
    /// so no other executor object has this ordinal).
    func reviveExecutor(_ ordinal: UInt32) {
        let (word, bit) = Self.parkedBit(ordinal)
        precondition(word < parkedOrdinals.count && parkedOrdinals[word] & bit != 0,
                     "reviving executor \(ordinal), which is not parked")
        parkedOrdinals[word] &= ~bit
    }

    /// Where `ordinal`'s bit is in `parkedOrdinals`.
    private static func parkedBit(_ ordinal: UInt32) -> (word: Int, bit: UInt64) {
        (Int(ordinal >> 6), UInt64(1) << UInt64(ordinal & 63))
    }

    /// Makes `job` ready. Called by the executors and the global hook on the simulation's thread.
    @inline(__always)
    func enqueue(_ job: UnownedJob, on executor: SimExecutor?, origin: Origin) {
        let taskID = jobTaskID(job)
        let entry = ReadyJob(
            job: job, executor: executor.map { UnownedSerialExecutor(ordinary: $0) },
            ordinal: executor?.ordinal ?? 0, origin: origin, task: owningTask(id: taskID))
        guard pthread_equal(pthread_self(), thread) != 0 else {
            foreignInbox.withLock { $0.append(entry) }
            foreignPending.store(true, ordering: .releasing)
            return
        }
        // URW's events: a running task that stays runnable (a yield, a hop to another actor).
        if urw != nil, entry.task == lastTask { urw!.ran(entry.task) }
        if origin == .global {
            globalJobsCaptured += 1
            ForeignJobRouter.claim(task: taskID, for: self)
        }
        ready.append(entry)
        checkInvariants()
    }

    /// A job of one of this simulation's tasks that arrived from another thread: an escape
    /// (fatal in strict mode); otherwise it is adopted at a point that depends on real timing.
    func enqueueFromForeignThread(_ job: UnownedJob) {
        enqueue(job, on: nil, origin: .foreign)
    }

    /// The task `job` belongs to: its own id, or the running task's for a job without one
    /// (`Task.yield()` enqueues such a job; it continues the task that yielded).
    @inline(__always)
    private func owningTask(of job: UnownedJob) -> UInt64 { owningTask(id: jobTaskID(job)) }

    /// The owner of a job whose runtime task id is `id` (0: the running task's).
    @inline(__always)
    private func owningTask(id: UInt64) -> UInt64 { id != 0 ? id : lastTask }

    /// Runs `job` after `delay` virtual nanoseconds.
    func schedule(_ job: UnownedJob, afterNanoseconds delay: UInt64) {
        precondition(pthread_equal(pthread_self(), thread) != 0, "timer scheduled from a foreign thread")
        addTimer(deadline: now &+ delay, action: .job(job), task: owningTask(of: job))
    }

    /// Wakes `sleeper` at virtual time `deadline`; returns the timer's id for cancellation.
    func schedule(_ sleeper: SleepWaker, atNanoseconds deadline: UInt64) -> UInt64 {
        precondition(pthread_equal(pthread_self(), thread) != 0, "sleep registered from a foreign thread")
        // The sleeping task is the one running now.
        return addTimer(deadline: max(deadline, now), action: .sleeper(sleeper), task: lastTask)
    }

    /// Cancels a continuation timer: it will be skipped when due. The caller resumes the continuation.
    func cancelTimer(_ id: UInt64) {
        precondition(id <= timerSequence, "cancelling timer \(id) that was never scheduled")
        cancelledTimers.insert(id)
        checkInvariants()
    }

    @discardableResult
    private func addTimer(deadline: UInt64, action: TimerAction, task: UInt64) -> UInt64 {
        timerSequence += 1
        timers.insert(Timer(deadline: deadline, sequence: timerSequence, action: action, task: task))
        checkInvariants()
        return timerSequence
    }

    /// A real-time sleep was attempted on the simulation's thread.
    /// The blocked thread stalls the whole simulation, so virtual time moves on by the sleep.
    func realTimeSleep(call: String, nanoseconds: Int64) {
        realTimeSleepsSkipped += 1
        now &+= UInt64(max(0, nanoseconds))
        if configuration.strict {
            escape(.realTimeSleep, detail: "\(call) of \(nanoseconds) ns blocked the simulation's thread in real time (use SimClock or Task.sleep)")
        }
    }

    /// System randomness was asked for on the simulation's thread: `count` bytes of the run's own
    /// stream go to `buffer` (so a non-strict run stays deterministic); in strict mode the run
    /// ends as an escape naming the call and the task that made it.
    func systemRandomness(call: String, into buffer: UnsafeMutableRawPointer?, count: Int) {
        if systemRandom == nil { systemRandom = streams.stream(named: "sim.system-randomness") }
        var filled = 0
        while filled < count, let buffer {
            var word = systemRandom!.next()
            let chunk = min(8, count - filled)
            withUnsafeBytes(of: &word) { bytes in (buffer + filled).copyMemory(from: bytes.baseAddress!, byteCount: chunk) }
            filled += chunk
        }
        if configuration.strict {
            escape(.systemRandomness, detail: "\(call) (system randomness: Int.random(in:), .shuffled() or .randomElement() without `using:`, UUID(), SystemRandomNumberGenerator) in \(currentTaskDescription()); use Simulation.random or a generator from the run's seed")
        }
    }

    /// Work was handed to a real thread from the simulation's thread (`call`: a Dispatch queue);
    /// in strict mode the run ends as an escape naming the call and the task that made it.
    func foreignWork(call: String) {
        guard configuration.strict else { return }
        escape(.foreignThread, detail: "\(call) in \(currentTaskDescription()) handed work to a real thread (its callback would resume simulated work at a real time no seed decides; keep the work on an actor of the simulation)")
    }

    /// The running job's task and actor, for escape messages: "task bidder-2 on actor Honor".
    func currentTaskDescription() -> String {
        let actor = currentExecutorOrdinal == 0 ? "nonisolated code" : "actor \(executorLabels[Int(currentExecutorOrdinal)])"
        guard let name = Simulation.currentTaskName else { return "an unnamed task (\(actor))" }
        return "task \(name) (\(actor))"
    }

    /// The stream system randomness is answered from (made on first use).
    @exclusivity(unchecked) private var systemRandom: SimRandom?

    /// Records that code inside the simulation escaped it; the run ends with `.escaped`.
    func escape(_ kind: SimulationOutcome.EscapeKind, detail: String) {
        escapes.append(SimulationOutcome.Escape(kind: kind, detail: detail, step: steps, timeNanoseconds: now))
    }

    // MARK: Events and tasks

    /// Folds an actor-recorded event into the trace.
    func record(_ text: String) {
        hash.mix(0xE7E7)
        hash.mix(now)
        hash.mix(UInt64(currentExecutorOrdinal))
        hash.mix(text)
        if recordsTrace {
            events.append(TraceEvent(
                step: steps, timeNanoseconds: now, kind: .event, actor: currentExecutorOrdinal,
                readyCount: 0, chosenIndex: 0, detail: text))
        }
    }

    func namedTaskStarted(_ name: String) -> UInt64 {
        namedTaskSequence += 1
        liveNamedTasks[namedTaskSequence] = name
        return namedTaskSequence
    }

    func namedTaskFinished(_ id: UInt64) { liveNamedTasks[id] = nil }

    /// Makes the calling thread the simulation's (a watched run's thread, before `runLoop`).
    func adoptCurrentThread() {
        precondition(steps == 0, "a running simulation cannot change threads")
        thread = pthread_self()
    }

    /// Tells the watchdog the running task's name (a spawned task, as its body starts).
    func nameRunningTask(_ name: String) { watchdog?.name(task: lastTask, name) }

    func rootDidFinish(error: (any Error)?) {
        rootFinished = true
        rootError = error
    }

    // MARK: Invariants

    /// Checks the whole structure when the configuration asks (`checksInternalInvariants`); free
    /// otherwise (one load and branch). Called after every mutation of the ready set, the timers or time.
    @inline(__always) func checkInvariants() {
        if checksInvariants { checkInvariantsDeeply() }
    }

    /// The deep checks: the thread, time never going back, the decision log, and every 64th call
    /// the structural scans (O(ready + timers), so a run with a large timer heap stays linear-ish;
    /// the cadence is a counter, so it is the same every run).
    @inline(never) func checkInvariantsDeeply() {
        precondition(pthread_equal(pthread_self(), thread) != 0, "scheduler touched off its thread")
        precondition(now >= lastCheckedNow, "virtual time went back from \(lastCheckedNow) to \(now)")
        lastCheckedNow = now
        precondition(Int(timingDecisions) <= choicePoints, "more timing decisions than decisions")
        precondition(!recordsDecisions || decisions.count == choicePoints, "a choice point not logged")
        precondition(replayCursor <= replayDecisions.count, "replay cursor past the log")
        internalChecks &+= 1
        guard internalChecks & 63 == 0 else { return }
        for entry in ready {
            precondition(Int(entry.ordinal) < executorLabels.count, "ready job on unknown executor \(entry.ordinal)")
            precondition((entry.executor == nil) == (entry.ordinal == 0), "ready job's executor and ordinal disagree")
        }
        var sequences = Set<UInt64>()
        for timer in timers.unordered {
            precondition(timer.sequence >= 1 && timer.sequence <= timerSequence, "timer \(timer.sequence) beyond the sequence")
            precondition(sequences.insert(timer.sequence).inserted, "timer \(timer.sequence) twice in the heap")
        }
        for id in cancelledTimers { precondition(id <= timerSequence, "cancelled timer \(id) never scheduled") }
    }

    /// The watchdog of a run with a stuck-job limit (set once the scheduler exists).
    @exclusivity(unchecked) var watchdog: Watchdog?

    /// Whether `checkInvariants` runs the deep checks.
    @exclusivity(unchecked) let checksInvariants: Bool
    /// The time at the previous deep check.
    @exclusivity(unchecked) private var lastCheckedNow: UInt64 = 0
    /// Deep checks so far (the structural scans run on every 64th).
    @exclusivity(unchecked) private var internalChecks: UInt64 = 0
    /// Deep checks made so far.
    var invariantChecks: UInt64 { internalChecks }

    /// Adds an action for the end of the run (see `Simulation.atEnd`).
    func atEnd(_ action: @escaping @Sendable () -> Void) {
        precondition(pthread_equal(pthread_self(), thread) != 0, "Simulation.atEnd called from a foreign thread")
        endActions.append(action)
    }

    /// Runs the end actions once, in registration order, and drops them (and what they captured).
    func runEndActions() {
        let actions = endActions
        endActions = []
        for action in actions { action() }
    }

    // MARK: The loop

    /// Runs until the root finishes (then lets ready work settle), a limit is hit, the run
    /// deadlocks or something escapes. Never sleeps: with nothing ready, time jumps.
    func runLoop() -> SimulationOutcome {
        let limits = configuration.limits
        var stepsAfterRoot: UInt64 = 0
        while true {
            if foreignPending.load(ordering: .acquiring) { adoptForeignJobs() }
            if !escapes.isEmpty { return .escaped(escapes) }
            if rootFinished {
                // Let already-ready work finish (it frees tasks); never advance time for it.
                if ready.isEmpty || stepsAfterRoot >= limits.maxStepsAfterRoot {
                    if let rootError { return .rootThrew(String(describing: rootError)) }
                    return .finished
                }
                stepsAfterRoot += 1
            }
            if ready.isEmpty {
                if rootFinished { continue }
                guard advanceTime() else {
                    if awaitForeignJobs() { continue }
                    if !escapes.isEmpty { return .escaped(escapes) }
                    // By name, so the report reads the same whichever task registered first.
                    return .deadlock(blockedTasks: liveNamedTasks.values.sorted())
                }
                if now > limits.maxVirtualNanoseconds { return .timeLimit(running: waitingDescription()) }
                continue
            }
            if steps >= limits.maxSteps { return .stepLimit(running: runningDescription()) }
            runOneJob()
        }
    }

    /// What the ready jobs run (their actors, or nonisolated code) and the named tasks alive, at most
    /// eight of each: the participants of a livelock.
    func runningDescription() -> [String] {
        var actors: [String] = []
        for entry in ready where actors.count < 8 {
            let label = entry.ordinal == 0 ? "nonisolated code" : executorLabels[Int(entry.ordinal)]
            if !actors.contains(label) { actors.append(label) }
        }
        return actors + liveNamedTasks.values.sorted().prefix(8).map { "task \($0)" }
    }

    /// The named tasks alive and how many sleepers there are: those the last advance of time woke
    /// (ready now, past the limit) and those whose timers are still pending.
    func waitingDescription() -> [String] {
        liveNamedTasks.values.sorted().prefix(8).map { "task \($0)" } + ["\(ready.count + timers.count) sleeper(s)"]
    }

    /// Runs one ready job. Where there is a choice it is logged as a *decision*: an index into
    /// the ready set in "default-first" order, where 0 is the non-preemptive default — the task
    /// that just ran, if its next job is the newest ready one, else the oldest ready job — and
    /// 1, 2, … are the others oldest first. So a log with few non-zero entries is a schedule with
    /// few preemptions, which is what shrinking minimises.
    @inline(__always)
    private func runOneJob() {
        let count = ready.count
        let index = count > 1 ? chooseReadyIndex(count: count) : 0
        let entry = takeReady(at: index, count: count)
        let ordinal = entry.ordinal
        currentExecutorOrdinal = ordinal
        lastTask = entry.task
        hash.mix(UInt64(ordinal) << 40 | UInt64(count) << 20 | UInt64(index))
        if recordsTrace {
            events.append(TraceEvent(
                step: steps, timeNanoseconds: now, kind: .run, actor: ordinal,
                readyCount: UInt32(count), chosenIndex: UInt32(index),
                detail: executorLabels[Int(ordinal)]))
        }
        watchdog?.beat(step: steps, ordinal: ordinal, task: entry.task)
        steps += 1
        if let executor = entry.executor {
            entry.job.runSynchronously(isolatedTo: executor, taskExecutor: unownedTaskExecutor)
        } else {
            entry.job.runSynchronously(on: unownedTaskExecutor)
        }
        currentExecutorOrdinal = 0
        checkInvariants()
    }

    /// The strategy's choice among `count` (> 1) ready jobs: returns its ready-set index and logs
    /// the decision (see `runOneJob`). Inlined: it runs once per step with a choice.
    @inline(__always)
    private func chooseReadyIndex(count: Int) -> Int {
        var index = 0
        let continuesLastTask = lastTask != 0 && ready[count - 1].task == lastTask
        var decision = 0
        // URW's measuring run names tasks by the same first-sight rule as the run that uses it.
        if strategyKind != .urw, urw != nil { urw!.see(count: count) { ready[$0].task } }
        switch strategyKind {
        case .fifo:
            index = 0
            decision = continuesLastTask ? 1 : 0
        case .nonpreemptive:
            index = continuesLastTask ? count - 1 : 0
        case .random:
            decision = schedulerRandom.below(count)
            index = Self.readyIndex(decision: decision, count: count, continuesLastTask: continuesLastTask)
        case .pct:
            index = pct!.choose(count: count) { ready[$0].task }
            decision = continuesLastTask ? (index == count - 1 ? 0 : index + 1) : index
        case .urw:
            index = urw!.choose(count: count) { ready[$0].task }
            decision = continuesLastTask ? (index == count - 1 ? 0 : index + 1) : index
        case .replay:
            decision = nextReplayDecision(count: count)
            index = Self.readyIndex(decision: decision, count: count, continuesLastTask: continuesLastTask)
        }
        precondition(index >= 0 && index < count && decision >= 0 && decision < count, "choice \(index) (decision \(decision)) outside \(count) ready jobs")
        if recordsDecisions { decisions.append(UInt32(decision)) }
        if recordsChoices { choiceCounts.append(UInt32(count)) }
        choicePoints += 1
        return index
    }

    /// Removes the ready job at `index` of `count`. Inlined: it runs once per step.
    @inline(__always)
    private func takeReady(at index: Int, count: Int) -> ReadyJob {
        if index == 0 { return ready.removeFirst() }
        if index == count - 1 { return ready.removeLast() }
        // Order-preserving for every strategy: a decision is an index into the ready set in
        // default-first order, so a replay must see the same order the recorded run saw (a
        // swap-remove under `random` would make replays of random runs diverge).
        return ready.remove(at: index)
    }

    /// The next logged decision of a replay, clamped to `count` choices (0 past the log's end).
    @inline(__always)
    private func nextReplayDecision(count: Int) -> Int {
        guard replayCursor < replayDecisions.count else { return 0 }
        defer { replayCursor += 1 }
        let decision = replayDecisions[replayCursor]
        if Int(decision) >= count && replayDivergence == nil {
            replayDivergence = ReplayDivergence(choicePoint: replayCursor, decision: decision, choices: count)
        }
        return min(Int(decision), count - 1)
    }

    /// The ready-set index of `decision` in default-first order (see `runOneJob`).
    @inline(__always)
    static func readyIndex(decision: Int, count: Int, continuesLastTask: Bool) -> Int {
        guard continuesLastTask else { return decision }
        return decision == 0 ? count - 1 : decision - 1
    }

    /// Moves virtual time to the next timer and fires every timer due then, in insertion order.
    /// With a timing window, the timers due within the window of the earliest are concurrent: the
    /// strategy picks one (a logged decision, 0 = the earliest), time moves to its deadline, it
    /// fires first and every timer due by then follows (late by less than the window).
    /// Returns false when there is no timer left.
    private func advanceTime() -> Bool {
        // Cancelled sleeps neither fire nor move time.
        while let first = timers.min, !cancelledTimers.isEmpty, cancelledTimers.remove(first.sequence) != nil {
            _ = timers.removeMin()
        }
        guard let first = timers.min else { return false }
        var target = first.deadline
        var chosen: Timer?
        if timingWindow > 0 {
            chosen = chooseAmongNearTimers(earliest: first.deadline)
            if let chosen { target = chosen.deadline }
        }
        // A timer is overdue after a blocking real-time sleep moved time on, or when the timing
        // window fired a later one first; it fires now. Time never goes back.
        if target > now {
            now = target
            hash.mix(0xA0A0)
            hash.mix(now)
            if recordsTrace {
                events.append(TraceEvent(
                    step: steps, timeNanoseconds: now, kind: .advance, actor: 0,
                    readyCount: 0, chosenIndex: 0, detail: ""))
            }
        }
        if let chosen { fire(chosen) }
        while let timer = timers.min, timer.deadline <= now {
            _ = timers.removeMin()
            if !cancelledTimers.isEmpty, cancelledTimers.remove(timer.sequence) != nil { continue }
            fire(timer)
        }
        checkInvariants()
        return true
    }

    @inline(__always)
    private func fire(_ timer: Timer) {
        precondition(timer.deadline <= now, "timer \(timer.sequence) fired at \(now) before its deadline \(timer.deadline)")
        timersFired += 1
        switch timer.action {
        case .job(let job):
            ready.append(ReadyJob(job: job, executor: nil, ordinal: 0, origin: .timer, task: timer.task))
        case .sleeper(let sleeper):
            sleeper.wake()
        }
    }

    /// Finds the live timers due within `timingWindow` of `earliest`; when there are two or more,
    /// lets the strategy choose one (logged as a decision) and returns it, marked so the heap skips
    /// it when it comes up (as a cancelled one is). Nil when there is no choice. The heap is not
    /// touched: the candidates are read where they lie, in `(deadline, sequence)` order — the
    /// order popping them would give, without popping and re-inserting them all.
    private func chooseAmongNearTimers(earliest: UInt64) -> Timer? {
        let limit = earliest &+ timingWindow
        guard anotherTimerDue(by: limit) else { return nil }
        nearTimers.removeAll(keepingCapacity: true)
        collectTimers(dueBy: limit)
        let count = nearTimers.count
        guard count > 1 else { return nil }
        let index: Int
        switch strategyKind {
        case .fifo, .nonpreemptive: index = 0
        case .random: index = schedulerRandom.below(count)
        case .pct: index = pct!.choose(count: count) { nearTimers[$0].task }
        case .urw: index = urw!.choose(count: count) { nearTimers[$0].task }
        case .replay: index = nextReplayDecision(count: count)
        }
        if recordsDecisions { decisions.append(UInt32(index)) }
        if recordsChoices { choiceCounts.append(UInt32(count)) }
        choicePoints += 1
        timingDecisions += 1
        hash.mix(0x71E0 | UInt64(count) << 20 | UInt64(index) << 40)
        if recordsTrace {
            events.append(TraceEvent(
                step: steps, timeNanoseconds: nearTimers[index].deadline, kind: .timing, actor: 0,
                readyCount: UInt32(count), chosenIndex: UInt32(index), detail: "timers"))
        }
        // The heap has not changed since the walk, so the position still holds the timer.
        let chosen = timers.unordered[nearTimers[index].heapIndex]
        assert(chosen.sequence == nearTimers[index].sequence, "a near timer moved in the heap before it was chosen")
        cancelledTimers.insert(chosen.sequence)  // it fires now; the heap drops it when it comes up
        return chosen
    }

    /// Whether a timer other than the earliest (the heap's root) may be due by `limit`: the
    /// second-earliest is among the root's children and grandchildren (a min-max heap's levels 1
    /// and 2, the second a min level), so when all of them are past `limit` there is no choice
    /// and the walk is skipped (half the calls of an auction-race seed). Debug builds check
    /// the answer as `collectTimers` checks its walk.
    private func anotherTimerDue(by limit: UInt64) -> Bool {
        let due = timers.unordered.withUnsafeBufferPointer { heap in
            var node = 1
            while node < heap.count && node < 7 {
                if heap[node].deadline <= limit { return true }
                node += 1
            }
            return false
        }
        #if DEBUG
        nearTimerChecks &+= 1
        if !due && (timers.count <= 512 || nearTimerChecks & 63 == 0) {
            precondition(timers.unordered.lazy.filter { $0.deadline <= limit }.count <= 1,
                "the near-timer shortcut missed a timer: Heap's storage layout changed")
        }
        #endif
        return due
    }

    /// Appends to `nearTimers` every live timer with a deadline at or before `limit`, sorted as the
    /// heap orders them. `Heap` is a min-max heap: a node on a min level (even depth) is at most
    /// every node below it, so a subtree whose min-level root is past `limit` holds nothing due.
    private func collectTimers(dueBy limit: UInt64) {
        timers.unordered.withUnsafeBufferPointer { heap in
            guard !heap.isEmpty else { return }
            // Breadth first, reading the queue by position (the result is sorted below), and the
            // timers' fields in place: copying a `Timer` retains its job or waker.
            timerQueue.removeAll(keepingCapacity: true)
            timerQueue.append(0)
            var next = 0
            while next < timerQueue.count {
                let node = timerQueue[next]
                next += 1
                let deadline = heap[node].deadline
                let depth = Int.bitWidth - 1 - (node + 1).leadingZeroBitCount
                if depth & 1 == 0 && deadline > limit { continue }
                if deadline <= limit {
                    let sequence = heap[node].sequence
                    if cancelledTimers.isEmpty || !cancelledTimers.contains(sequence) {
                        nearTimers.append(NearTimer(deadline: deadline, sequence: sequence, task: heap[node].task, heapIndex: node))
                    }
                }
                let left = 2 * node + 1
                if left < heap.count { timerQueue.append(left) }
                if left + 1 < heap.count { timerQueue.append(left + 1) }
            }
        }
        // `Timer`'s order: by deadline, then by sequence.
        if nearTimers.count > 1 { nearTimers.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) } }
        #if DEBUG
        // The walk leans on `Heap`'s storage layout (min-max levels), which swift-collections
        // does not promise: debug builds check it against a filter of every timer (each time for
        // a small heap, every 64th time for a large one, so debug runs stay linear-ish).
        nearTimerChecks &+= 1
        if timers.count <= 512 || nearTimerChecks & 63 == 0 {
            precondition(nearTimers.map(\.sequence) == timers.unordered
                .filter { $0.deadline <= limit && !cancelledTimers.contains($0.sequence) }.sorted().map(\.sequence),
                "the near-timer walk missed a timer or found a wrong one: Heap's storage layout changed")
        }
        #endif
    }

    /// Before declaring a deadlock, gives work resumed by a real thread a short grace period
    /// (real time, outside the simulation) to arrive; true if some did. Skipped in strict mode:
    /// there a job from a real thread is an escape whenever it comes, so waiting for one cannot
    /// rescue the run (a deadlock is declared at once, at kernel speed). Non-strict runs tolerate
    /// real threads, and a continuation resumed by one may still be on its way.
    private func awaitForeignJobs() -> Bool {
        if foreignPending.load(ordering: .acquiring) { return true }
        if configuration.strict { return false }
        var waitedMilliseconds = 0
        while waitedMilliseconds < Self.foreignGraceMilliseconds {
            if foreignPending.load(ordering: .acquiring) { return true }
            SleepInterposer.sleepReal(microseconds: 1_000)
            waitedMilliseconds += 1
        }
        return foreignPending.load(ordering: .acquiring)
    }

    /// How long a would-be deadlock waits for jobs from foreign threads (real milliseconds, at
    /// least: counted in 1 ms sleeps). Long enough for a thread that a loaded 2-core machine
    /// schedules late; paid only by a non-strict run that is about to fail anyway.
    static let foreignGraceMilliseconds = 250

    private func adoptForeignJobs() {
        let jobs = foreignInbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
        foreignPending.store(false, ordering: .relaxed)
        if configuration.strict, !jobs.isEmpty {
            escape(.foreignThread, detail: "\(jobs.count) job(s) were enqueued from a thread outside the simulation (a real thread, a Dispatch queue or a real-time timer resumed simulated work)")
            return
        }
        ready.append(contentsOf: jobs)
    }

    /// Drops the run's buffers once the result holds them: actors that outlive the run (tasks left
    /// suspended) keep the scheduler alive through their executors, and must not keep these too.
    func releaseBuffers() {
        decisions = []
        events = []
        ready = Deque()
        timers = Heap()
        cancelledTimers = []
        replayDecisions = []
        choiceCounts = []
        nearTimers = []
        timerQueue = []
        liveNamedTasks = [:]
        endActions = []
    }

    /// Jobs and timers still pending when the run ended (they never ran).
    var pendingWork: (readyJobs: Int, timers: Int) { (ready.count, timers.count - cancelledTimers.count) }
}

extension Scheduler {
    /// Whether the caller is on the simulation's thread.
    var isOnSimulationThread: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// True when `executor`'s job is running right now on the simulation's thread.
    func isRunning(_ executor: SimExecutor) -> Bool {
        isOnSimulationThread && currentExecutorOrdinal == executor.ordinal
    }
}
