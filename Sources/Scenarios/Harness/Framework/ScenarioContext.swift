import Sim
import Synchronization

/// What a running scenario reports to: its parameters and variant, its checks (Always ends the
/// run at the first violation, recording the kernel step and virtual time), its Sometimes goals,
/// latency samples and per-user timeline. Safe to call from any task of the simulation.
public final class ScenarioContext: Sendable {
    /// The running scenario's name.
    public let scenario: String
    /// The run's seed.
    public let seed: UInt64
    /// Every parameter's value, range-checked.
    public let parameters: ScenarioParameters
    /// The selected domain variant name, or nil for the careful design.
    public let variant: String?
    /// The seed's swarm of fault kinds, when the run is swarmed; a backend's bridge applies it to
    /// every backend it builds for the run.
    package let swarm: SwarmConfiguration?
    /// The seed's drawn world, when the run has one; a backend's bridge applies its fault rates and
    /// outages to every backend it builds for the run.
    public let world: World?

    struct State {
        var violation: InvariantViolation?
        /// The scenario's root task ended by throwing `ScenarioStopped` (a violation stopped it early).
        var stoppedByViolation = false
        var observations: [String: Int] = [:]
        var reached: Set<String> = []
        var samples: [LatencySample] = []
        var droppedSamples = 0
        var timeline: [TimelineEntry] = []
        var droppedTimeline = 0
        /// What the run built that reports faults and coverage, with the virtual time of its clock's zero.
        var participants: [(participant: any RunParticipant, originNanoseconds: Int64)] = []
        /// The calendar instant of virtual time 0 (from the first participant with a calendar).
        var calendarZeroUnixNanoseconds: Int64?
        var timeZones: [String: String] = [:]
        /// The run's participants, whose subjects the leak tests check are freed once the run ends.
        var weakParticipants: [WeakParticipant] = []
        /// Counts test hooks add up while the run ends (`addTestCount`).
        var testCounts: [String: Int] = [:]
    }
    struct WeakParticipant {
        let participant: any RunParticipant
    }
    private let state = Mutex(State())

    /// A context for one run (the runner makes it; tests may too).
    package convenience init(scenario: String, seed: UInt64, parameters: ScenarioParameters, variant: String?, swarm: SwarmConfiguration? = nil, world: World? = nil) {
        self.init(scenario: scenario, seed: seed, parameters: parameters, variant: variant, swarm: swarm, world: world, testHooks: BackendTestHooks())
    }

    /// A context whose backends get `testHooks` (tests of the harness).
    package init(
        scenario: String, seed: UInt64, parameters: ScenarioParameters, variant: String?, swarm: SwarmConfiguration?,
        world: World? = nil, testHooks: BackendTestHooks
    ) {
        self.world = world
        self.testHooks = testHooks
        self.swarm = swarm
        self.scenario = scenario
        self.seed = seed
        self.parameters = parameters
        self.variant = variant
    }

    /// Test hooks for the backends this run builds (empty in real runs).
    package let testHooks: BackendTestHooks

    /// Joins `participant` to the run: its faults, coverage and fault events go into the report.
    /// `originNanoseconds` is the virtual time of its clock's zero; `calendarZeroUnixNanoseconds`
    /// the calendar instant of virtual time 0, if it keeps a calendar (the first one given is kept).
    package func join(_ participant: any RunParticipant, originNanoseconds: Int64, calendarZeroUnixNanoseconds: Int64?) {
        state.withLock { state in
            state.participants.append((participant, originNanoseconds))
            if state.calendarZeroUnixNanoseconds == nil { state.calendarZeroUnixNanoseconds = calendarZeroUnixNanoseconds }
            state.weakParticipants.append(WeakParticipant(participant: participant))
        }
    }

    /// How many of the run's participants are still allocated (tests: 0 once the run has ended and
    /// nothing outside it holds one).
    package var liveParticipants: Int { state.withLock { $0.weakParticipants.count { $0.participant.subject != nil } } }

    /// Adds `value` to the test count `name` (hooks report what they did, read after the run).
    package func addTestCount(_ name: String, _ value: Int) {
        state.withLock { $0.testCounts[name, default: 0] += value }
    }

    /// The test counts hooks added (read once the run has ended).
    package var testCounts: [String: Int] { state.withLock { $0.testCounts } }

    /// How many participants joined the run (the runner checks a scenario that uses a backend built one).
    var participantsJoined: Int { state.withLock { $0.participants.count } }

    /// True once a violation was recorded: user actors stop issuing operations.
    public var isStopped: Bool { state.withLock { $0.violation != nil } }

    /// The first violation, if any.
    package var violation: InvariantViolation? { state.withLock { $0.violation } }

    /// Whether the root task ended by throwing `ScenarioStopped` (set by the runner, read after the run).
    var stoppedByViolation: Bool {
        get { state.withLock { $0.stoppedByViolation } }
        set { state.withLock { $0.stoppedByViolation = newValue } }
    }

    /// Always: `condition` must hold now. The first failure is kept with the current step and time.
    public func always(_ check: CheckDeclaration, _ condition: Bool, _ message: @autoclosure () -> String) {
        precondition(check.kind == .always, "\(check.name) is declared \(check.kind.rawValue), checked as always")
        observe(check.name, kind: .always, condition, message)
    }

    /// Eventually: an end-state check, made once the workload finished and the backend is idle.
    /// An Always check may also be judged here (it must hold at the end too).
    public func eventually(_ check: CheckDeclaration, _ condition: Bool, _ message: @autoclosure () -> String) {
        precondition(check.kind != .sometimes, "\(check.name) is a sometimes goal, checked as eventually")
        observe(check.name, kind: .eventually, condition, message)
    }

    /// Sometimes: records that `goal` was reached in this run when `condition` holds.
    public func sometimes(_ goal: CheckDeclaration, _ condition: Bool) {
        precondition(goal.kind == .sometimes, "\(goal.name) is declared \(goal.kind.rawValue), reached as a sometimes goal")
        guard condition else { return }
        state.withLock { _ = $0.reached.insert(goal.name) }
    }

    private func observe(_ check: String, kind: CheckDeclaration.Kind, _ condition: Bool, _ message: () -> String) {
        if condition {
            count(check, kind: kind, observations: 1, failure: nil)
        } else {
            count(check, kind: kind, observations: 1, failure: message())
        }
    }

    /// Always, batched: `count` evaluations of `check` made in one synchronous pass (no await in
    /// between), `firstFailure` the message of the first that failed (nil: all held). Records the
    /// same observations and violation as `count` calls of `always` at this step, with one lock and
    /// one dictionary update instead of `count`.
    public func always(_ check: CheckDeclaration, observations count: Int, firstFailure: String?) {
        precondition(check.kind == .always, "\(check.name) is declared \(check.kind.rawValue), checked as always")
        guard count > 0 else { return }
        self.count(check.name, kind: .always, observations: count, failure: firstFailure)
    }

    /// Adds `observations` to `check`'s count and, if `failure` is set and no violation was
    /// recorded yet, records it as the run's violation at this step.
    private func count(_ check: String, kind: CheckDeclaration.Kind, observations: Int, failure: String?) {
        let first = state.withLock { state -> Bool in
            state.observations[check, default: 0] += observations
            return failure != nil && state.violation == nil
        }
        guard first, let failure else { return }
        let violation = InvariantViolation(
            check: check, kind: kind, message: failure,
            step: Simulation.currentStep, virtualNanoseconds: Simulation.nowNanoseconds)
        let recorded = state.withLock { state -> Bool in
            guard state.violation == nil else { return false }
            state.violation = violation
            return true
        }
        if recorded { Simulation.record("violation \(check) at step \(violation.step): \(violation.message)") }
    }

    /// Throws `ScenarioStopped` if a violation was recorded (call between phases).
    public func throwIfStopped() throws {
        if let violation { throw ScenarioStopped(violation: violation) }
    }

    /// Records one operation that was meant to start at `intendedStartNanoseconds` and ends now.
    public func recordLatency(_ operation: String, user: String, intendedStartNanoseconds: UInt64) {
        let now = Simulation.nowNanoseconds
        precondition(now >= intendedStartNanoseconds, "an operation cannot end before its arrival")
        let sample = LatencySample(
            operation: operation, user: user, intendedStartNanoseconds: intendedStartNanoseconds,
            endNanoseconds: now, step: Simulation.currentStep)
        state.withLock { state in
            if state.samples.count < ScenarioLimits.maxLatencySamples { state.samples.append(sample) } else { state.droppedSamples += 1 }
        }
    }

    /// Runs `body` and records its latency as one `operation` of `user` (started now).
    public func measure<T>(_ operation: String, user: String, _ body: () async throws -> T) async rethrows -> T {
        let start = Simulation.nowNanoseconds
        let value = try await body()
        recordLatency(operation, user: user, intendedStartNanoseconds: start)
        return value
    }

    /// Adds `event` to `user`'s timeline at the current virtual time (past the timeline's limit it
    /// is counted as dropped, and not built).
    public func note(_ user: String, _ event: @autoclosure () -> String) {
        appendToTimeline { TimelineEntry(user: user, timeNanoseconds: Simulation.nowNanoseconds, event: event(), step: Simulation.currentStep) }
    }

    /// A timeline entry for `user` whose text `event` builds only if the timeline is read (a
    /// report, a failure's story): for the notes of hot paths, which most runs never show.
    /// `event` must depend only on the values it captured.
    public func note(_ user: String, rendering event: @escaping @Sendable () -> String) {
        appendToTimeline { TimelineEntry(user: user, timeNanoseconds: Simulation.nowNanoseconds, step: Simulation.currentStep, rendering: event) }
    }

    /// Appends the entry `make` builds, or counts it as dropped past the timeline's limit (then it
    /// is not built). Built outside the lock: a note's text may read this context.
    private func appendToTimeline(_ make: () -> TimelineEntry) {
        let full = state.withLock { state in
            guard state.timeline.count >= ScenarioLimits.maxTimelineEntries else { return false }
            state.droppedTimeline += 1
            return true
        }
        guard !full else { return }
        let entry = make()
        state.withLock { state in
            if state.timeline.count < ScenarioLimits.maxTimelineEntries { state.timeline.append(entry) } else { state.droppedTimeline += 1 }
        }
    }

    /// Records that `user` lives in IANA time zone `identifier`, so reports of a calendar-based
    /// scenario show the user's local times next to UTC.
    public func timeZone(_ user: String, _ identifier: String) {
        state.withLock { $0.timeZones[user] = identifier }
    }

    /// Runs `body` while a monitor task calls `check` every `interval` of virtual time, then
    /// once more at the end; returns early (throwing `ScenarioStopped`) after a violation.
    public func monitored(
        every interval: Duration, check: @escaping @Sendable () -> Void, _ body: () async throws -> Void
    ) async throws {
        let done = Mutex(false)
        let monitor = Simulation.spawn("\(scenario)/monitor") { [self] in
            let clock = SimClock()
            while !done.withLock({ $0 }) && !isStopped {
                try? await clock.sleep(for: interval)
                check()
            }
        }
        do {
            try await body()
        } catch {
            done.withLock { $0 = true }
            await monitor.value
            throw error
        }
        done.withLock { $0 = true }
        await monitor.value
        check()
        try throwIfStopped()
    }

    /// Everything recorded so far, sorted where order matters.
    var snapshot: ScenarioObservations {
        state.withLock { state in
            ScenarioObservations(
                violation: state.violation, observations: state.observations, reached: state.reached.sorted(),
                samples: state.samples, droppedSamples: state.droppedSamples,
                timeline: state.timeline, droppedTimeline: state.droppedTimeline,
                faults: state.participants.reduce([]) { FaultObservation.combining($0, $1.participant.faultObservations) },
                coverage: state.participants.reduce([]) { CoverageEntry.combining($0, $1.participant.coverage) },
                calendar: state.calendarZeroUnixNanoseconds.map { ReportCalendar(zeroUnixNanoseconds: $0, timeZones: state.timeZones.isEmpty ? nil : state.timeZones) },
                faultEvents: state.participants.flatMap { entry in
                    entry.participant.faultEvents.map { event in
                        TimelineEntry(
                            user: FailureStory.backendUser, timeNanoseconds: UInt64(max(0, entry.originNanoseconds + event.elapsedNanoseconds)),
                            step: nil, rendering: event.render)
                    }
                }.sorted { $0.timeNanoseconds < $1.timeNanoseconds })
        }
    }
}

/// What a scenario run recorded, handed from the simulation back to the runner.
struct ScenarioObservations: Sendable {
    var violation: InvariantViolation?
    var observations: [String: Int]
    var reached: [String]
    var samples: [LatencySample]
    var droppedSamples: Int
    var timeline: [TimelineEntry]
    var droppedTimeline: Int
    var faults: [FaultObservation]
    /// Which declared code ran (summed over the run's participants).
    var coverage: [CoverageEntry]
    /// Calendar time of the run's virtual time (nil: no backend built).
    var calendar: ReportCalendar?
    /// The faults that took effect, as timeline entries of user `backend` (for stories).
    var faultEvents: [TimelineEntry]
}
