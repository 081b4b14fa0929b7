import Domain
import Foundation
import Sim  // BuildFingerprint only; load mode never calls `Simulation.*`
import Synchronization

// WALL CLOCK ON PURPOSE. Load mode (`rehearse load`) runs outside the simulation, on the real
// Swift runtime, and measures how long operations take in real time: this file is the one place
// in Scenarios that reads the wall clock (`ContinuousClock`, `Date`). It never calls
// `Simulation.*`; everything else in Scenarios runs on the simulator's virtual clock.

/// One `rehearse load` run: which profile, which load model, for how long.
public struct LoadRequest: Sendable, Hashable {
    /// How arrivals are generated.
    public enum Model: Sendable, Hashable, CustomStringConvertible {
        /// Open model: arrivals at `rate` per second (ramping linearly to `rampTo`), each at its
        /// scheduled instant whether or not earlier ones finished.
        case open(rate: Double, rampTo: Double?)
        /// Closed model: `users` virtual users, each looping operation → `thinkTime`.
        case closed(users: Int, thinkTime: Duration)

        public var description: String {
            switch self {
            case .open(let rate, let rampTo): "open rate=\(LoadRequest.format(rate))/s" + (rampTo.map { " ramp-to=\(LoadRequest.format($0))/s" } ?? "")
            case .closed(let users, let thinkTime): "closed vus=\(users) think-time=\(thinkTime)"
            }
        }
    }

    public var scenario: String
    public var model: Model
    public var duration: Duration
    public var thresholds: [Threshold]
    public var seed: UInt64
    /// Bound on iterations in flight (open model): beyond it arrivals wait, and their latency,
    /// timed from the intended start, includes the wait.
    public var maxInFlight: Int
    /// After `duration`, how long the runner waits for iterations still in flight before it stops anyway.
    public var drainTimeout: Duration
    public var gitCommit: String?
    /// The command line, for the report.
    public var commandLine: String

    public init(
        scenario: String, model: Model, duration: Duration, thresholds: [Threshold] = [], seed: UInt64 = 1,
        maxInFlight: Int = 10_000, drainTimeout: Duration = .seconds(60), gitCommit: String? = nil, commandLine: String = ""
    ) {
        self.scenario = scenario
        self.model = model
        self.duration = duration
        self.thresholds = thresholds
        self.seed = seed
        self.maxInFlight = maxInFlight
        self.drainTimeout = drainTimeout
        self.gitCommit = gitCommit
        self.commandLine = commandLine
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Folder name of the run: `auction-race-load-open-50ps` or `auction-race-load-closed-4vus`.
    public var runId: String {
        switch model {
        case .open(let rate, let rampTo):
            "\(scenario)-load-open-\(Self.format(rate))ps" + (rampTo.map { "-to-\(Self.format($0))ps" } ?? "")
        case .closed(let users, _): "\(scenario)-load-closed-\(users)vus"
        }
    }

    /// Seconds since the open model's start at which arrival `index` (from 0) is due: constant
    /// rate r, or a linear ramp r0 → r1 over the duration D (solves r0·t + (r1−r0)·t²/2D = index).
    static func arrivalSeconds(_ index: Int, rate: Double, rampTo: Double?, durationSeconds: Double) -> Double {
        let n = Double(index)
        guard let rampTo, rampTo != rate, durationSeconds > 0 else { return n / rate }
        let slope = (rampTo - rate) / durationSeconds
        let discriminant = rate * rate + 2 * slope * n
        guard discriminant >= 0 else { return .infinity }  // a ramp down ends before the duration
        return (-rate + discriminant.squareRoot()) / slope
    }
}

/// What the wall-clock run adds to a `RunReport` (absent in simulated reports).
public struct LoadSummary: Sendable, Hashable, Codable {
    /// `open` or `closed`.
    public var model: String
    /// The model as given: `open rate=50/s ramp-to=200/s`, `closed vus=4 think-time=0.1 seconds`.
    public var description: String
    public var targetRatePerSecond: Double?
    public var rampToPerSecond: Double?
    public var virtualUsers: Int?
    public var thinkTimeNanoseconds: UInt64?
    public var durationNanoseconds: UInt64
    /// Iterations started, and finished before the run stopped.
    public var iterationsStarted: Int
    public var iterationsCompleted: Int
    /// Iterations started per second of the scheduled duration (the load actually offered).
    public var achievedRatePerSecond: Double
    /// Iterations finished per second of wall time elapsed (until the last one finished).
    public var throughputPerSecond: Double
    /// Wall time from the first arrival until the last iteration finished (or the drain timeout).
    public var elapsedNanoseconds: UInt64
    /// Operations that failed (after the client's retries), by operation.
    public var errors: [String: Int]
    /// Arrivals that waited for a free slot because `maxInFlight` iterations were running.
    public var delayedByInFlightLimit: Int
    public var maxInFlight: Int
    /// Iterations still running at the drain timeout (abandoned).
    public var abandoned: Int
    /// Cores the runtime could use.
    public var cores: Int
}

/// Runs a `LoadProfile` on the real runtime (all cores, `ContinuousClock`) and builds a
/// wall-clock `RunReport` with the same latency summaries and thresholds as a simulated run.
public enum LoadRunner {
    /// The scenario names that have a load profile.
    public static var profiledScenarios: [String] { LoadProfile.all.map(\.scenario) }

    private struct State {
        var samples: [LatencySample] = []
        var dropped = 0
        var sequence: UInt64 = 0
        var errors: [String: Int] = [:]
        var started = 0
        var completed = 0
        var delayed = 0
    }

    /// The run's counters, shared by the scheduler and the iterations (a class: `Mutex`/`Atomic` are not copyable).
    private final class Shared: Sendable {
        let state = Mutex(State())
        let inFlight = Atomic<Int>(0)
        let counter = Atomic<Int>(0)
    }

    /// Runs `request`; the profile must exist (see `LoadProfile.named`). Always returns: arrivals
    /// stop at the duration, and iterations still running after `drainTimeout` are abandoned.
    public static func run(_ request: LoadRequest) async -> RunReport {
        guard let profile = LoadProfile.named(request.scenario) else { preconditionFailure("no load profile for \(request.scenario)") }
        let epoch = Int64(Date().timeIntervalSince1970 * 1e9)  // wall clock on purpose: load mode runs outside the simulation (see the top of this file)
        let env = DomainEnvironment.realRuntime(seed: request.seed, epochUnixNanoseconds: epoch)
        let workload = await profile.setUp(env)

        let clock = ContinuousClock()
        let start = clock.now
        let now: @Sendable () -> UInt64 = { UInt64(max(0, start.duration(to: clock.now).nanoseconds)) }
        let shared = Shared()
        let sink: @Sendable (String, UInt64, Bool) -> Void = { operation, intended, failed in
            let end = now()
            shared.state.withLock { s in
                s.sequence += 1
                if failed { s.errors[operation, default: 0] += 1 }
                if s.samples.count < ScenarioLimits.maxLatencySamples {
                    s.samples.append(LatencySample(
                        operation: operation, user: "", intendedStartNanoseconds: intended, endNanoseconds: max(end, intended), step: s.sequence))
                } else {
                    s.dropped += 1
                }
            }
        }
        func launch(index: Int, user: Int, intended: UInt64) {
            shared.inFlight.add(1, ordering: .relaxed)
            shared.state.withLock { $0.started += 1 }
            Task {
                let recorder = LoadProfile.LoadRecorder(intendedStartNanoseconds: intended, now: now, sink: sink)
                await workload.iterate(index, user, recorder)
                shared.state.withLock { $0.completed += 1 }
                shared.inFlight.subtract(1, ordering: .relaxed)
            }
        }

        let durationNanoseconds = UInt64(max(0, request.duration.nanoseconds))
        switch request.model {
        case .open(let rate, let rampTo):
            var index = 0
            while true {
                let due = LoadRequest.arrivalSeconds(index, rate: rate, rampTo: rampTo, durationSeconds: Double(durationNanoseconds) / 1e9)
                guard due.isFinite, due * 1e9 < Double(durationNanoseconds) else { break }
                let intended = UInt64(due * 1e9)
                try? await clock.sleep(until: start + .nanoseconds(Int64(intended)))
                if shared.inFlight.load(ordering: .relaxed) >= request.maxInFlight {
                    shared.state.withLock { $0.delayed += 1 }
                    while shared.inFlight.load(ordering: .relaxed) >= request.maxInFlight {
                        try? await clock.sleep(for: .milliseconds(1))
                    }
                }
                launch(index: index, user: index % profile.users, intended: intended)
                index += 1
            }
        case .closed(let users, let thinkTime):
            await withTaskGroup(of: Void.self) { group in
                for user in 0..<users {
                    group.addTask {
                        while now() < durationNanoseconds {
                            let index = shared.counter.add(1, ordering: .relaxed).oldValue
                            let intended = now()
                            shared.state.withLock { $0.started += 1 }
                            let recorder = LoadProfile.LoadRecorder(intendedStartNanoseconds: intended, now: now, sink: sink)
                            await workload.iterate(index, user, recorder)
                            shared.state.withLock { $0.completed += 1 }
                            if now() >= durationNanoseconds { break }
                            try? await clock.sleep(for: thinkTime)
                        }
                    }
                }
            }
        }
        // Drain: wait for the open model's iterations in flight, at most `drainTimeout`.
        let drainDeadline = clock.now + request.drainTimeout
        while shared.inFlight.load(ordering: .relaxed) > 0 && clock.now < drainDeadline {
            try? await clock.sleep(for: .milliseconds(5))
        }
        let elapsed = now()
        let abandoned = shared.inFlight.load(ordering: .relaxed)
        let final = shared.state.withLock { $0 }
        return report(request, final, elapsed: elapsed, abandoned: abandoned)
    }

    private static func report(_ request: LoadRequest, _ state: State, elapsed: UInt64, abandoned: Int) -> RunReport {
        let operations = Set(state.samples.map(\.operation)).sorted()
        let latency = operations.map { operation in
            LatencySummary(operation: operation, samples: state.samples.filter { $0.operation == operation }, seed: request.seed)
        }
        let thresholds = request.thresholds.map { threshold in
            let observed = latency.first { $0.operation == threshold.operation }?.value(of: threshold.statistic)
            return RunReport.ThresholdResult(expression: threshold.expression, observedNanoseconds: observed, passed: observed.map(threshold.isMet(by:)) ?? false)
        }
        var failure: RunReport.Failure?
        if abandoned > 0 {
            failure = .init(kind: .load, message: "\(abandoned) iterations still running \(request.drainTimeout) after the duration (abandoned)")
        } else if let missed = thresholds.first(where: { !$0.passed }) {
            let observedText = missed.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            failure = .init(kind: .threshold, message: "threshold \(missed.expression) missed (observed \(observedText))")
        }
        let durationNanoseconds = UInt64(max(0, request.duration.nanoseconds))
        var parameters: [String: Int] = ["durationMilliseconds": Int(durationNanoseconds / 1_000_000), "maxInFlight": request.maxInFlight]
        var summary = LoadSummary(
            model: "", description: request.model.description, durationNanoseconds: durationNanoseconds,
            iterationsStarted: state.started, iterationsCompleted: state.completed,
            achievedRatePerSecond: durationNanoseconds == 0 ? 0 : Double(state.started) / (Double(durationNanoseconds) / 1e9),
            throughputPerSecond: elapsed == 0 ? 0 : Double(state.completed) / (Double(elapsed) / 1e9),
            elapsedNanoseconds: elapsed, errors: state.errors, delayedByInFlightLimit: state.delayed, maxInFlight: request.maxInFlight,
            abandoned: abandoned, cores: ProcessInfo.processInfo.activeProcessorCount)
        switch request.model {
        case .open(let rate, let rampTo):
            summary.model = "open"
            summary.targetRatePerSecond = rate
            summary.rampToPerSecond = rampTo
            parameters["ratePerSecond"] = Int(rate)
            if let rampTo { parameters["rampToPerSecond"] = Int(rampTo) }
        case .closed(let users, let thinkTime):
            summary.model = "closed"
            summary.virtualUsers = users
            summary.thinkTimeNanoseconds = UInt64(max(0, thinkTime.nanoseconds))
            parameters["vus"] = users
            parameters["thinkTimeMilliseconds"] = Int(max(0, thinkTime.nanoseconds) / 1_000_000)
        }
        let errorCount = state.errors.values.reduce(0, +)
        let detail = "\(state.completed) iterations in \(ReportFormat.duration(elapsed)) wall (\(request.model)); "
            + "offered \(String(format: "%.1f", summary.achievedRatePerSecond))/s, throughput \(String(format: "%.1f", summary.throughputPerSecond))/s; \(errorCount) failed operations"
        return RunReport(
            runId: request.runId, scenario: request.scenario, seed: request.seed, strategy: "load \(request.model)", variant: nil,
            parameters: parameters, passed: failure == nil, failure: failure, violation: nil,
            outcome: abandoned > 0 ? "drain-timeout" : "finished", outcomeDetail: detail,
            steps: UInt64(state.completed), virtualNanoseconds: elapsed, traceHash: "none",
            build: BuildFingerprint(commit: request.gitCommit ?? "unknown"), checks: [], latency: latency, thresholds: thresholds,
            timeline: [], droppedLatencySamples: state.dropped, droppedTimelineEntries: 0, replayCommand: request.commandLine,
            clock: .wall, load: summary)
    }
}
