import Foundation
import Histogram
import Sim

// WALL CLOCK ON PURPOSE, for `clock: .wall` only. A wall-clock load run (`rehearse load`) runs
// outside the simulation, on the real Swift runtime, and measures real time: `runWall` is the one
// place in the harness that reads the wall clock (`Date`, for the calendar epoch; the profile's
// world keeps time with `ContinuousClock`). A virtual run (`runVirtual`) runs the same
// `LoadDriver` and profile inside `Simulation.run`, on the simulator's clock.

/// Runs a `LoadProfile` under a k6 executor, on the real runtime (wall clock) or on the
/// simulator (virtual time, reproducible by seed), and builds its `RunReport`.
package enum LoadRunner {
    /// The scenario names that have a load profile.
    package static var profiledScenarios: [String] { LoadProfile.all.map(\.scenario) }

    /// Runs `request` on its clock (`runWall` must not be called on a simulation thread).
    package static func run(_ request: LoadRequest, server: (any LoadServer)? = nil) async -> RunReport {
        switch request.clock {
        case .wall: await runWall(request, server: server)
        case .virtual: runVirtual(request)
        }
    }

    /// On the real runtime, all cores, wall-clock latency. Always returns: arrivals stop at the
    /// duration, and iterations still running after the graceful stop are abandoned. `given` runs
    /// a profile no scenario declares (a benchmark's own workload).
    package static func runWall(_ request: LoadRequest, server: (any LoadServer)? = nil, profile given: LoadProfile? = nil) async -> RunReport {
        let profile = given ?? profile(request)
        let epoch = Int64(Date().timeIntervalSince1970 * 1e9)  // wall clock on purpose (see the top of this file)
        let setupStart = ContinuousClock.now  // wall clock on purpose: how long the untimed set-up took
        let world = await profile.setUp(LoadProfile.Environment(
            seed: request.seed, variant: request.variant, clock: .wall, epochUnixNanoseconds: epoch, server: server))
        let setup = setupStart.duration(to: .now)
        let metrics = LoadMetrics(span: span(request))
        var driver = LoadDriver(request: request, users: profile.users, workload: world.workload, clock: world.clock, metrics: metrics, taskExecutor: world.taskExecutor)
        let stop = server.map { _ in LoadStop() }
        driver.stop = stop
        if let server, let stop, !(await server.isAnswering()) {
            stop.raise("\(server.name) stopped answering during the set-up, before the first arrival;", atNanoseconds: 0)
        }
        let watcher = server.map { server in Task { await watch(server, stop: stop!, from: .now) } }
        let elapsed = await driver.run()
        watcher?.cancel()
        // A real server's notes wait for its trigger events to drain: the settled state is judged after.
        let notes = await server?.notes()
        if stop?.isRaised != true { await world.workload.settle?() }
        var report = report(request, metrics.snapshot, elapsed: elapsed, cores: ProcessInfo.processInfo.activeProcessorCount)
        judge(world.workload.checks, in: &report)
        report.load?.setupNanoseconds = nanoseconds(setup)
        report.faults = observations(world).faults
        report.coverage = observations(world).coverage
        if let (reason, at) = stop?.raisedWith {
            report.passed = false
            report.load?.stoppedEarlyNanoseconds = at
            // Offered over the time the load ran, not the whole duration it was meant to run.
            report.load?.achievedRatePerSecond = at == 0 ? 0 : Double(metrics.snapshot.started) / (Double(at) / 1e9)
            let when = at == 0 ? "" : " \(ReportFormat.duration(at)) into the load;"
            report.failure = .init(kind: .server, message: "\(reason)\(when) the run stopped there and this report covers the load until then (incomplete)")
        }
        if let server { await describe(server, notes: notes ?? [], in: &report) }
        return report
    }

    /// The profile's checks in the report; the first violation fails the run (unless it failed already).
    private static func judge(_ checks: LoadCheckLog?, in report: inout RunReport) {
        guard let checks else { return }
        report.checks = checks.results
        if let (check, message) = checks.firstViolation, report.failure == nil {
            report.passed = false
            report.failure = .init(kind: .invariant, message: "\(check): \(message)")
        }
    }

    /// Polls `server` while the load runs (wall clock on purpose: a real server's health): after
    /// `watchMisses` unanswered looks in a row, stops the load.
    private static func watch(_ server: any LoadServer, stop: LoadStop, from start: ContinuousClock.Instant) async {
        var misses = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(misses == 0 ? 500 : 250))
            if Task.isCancelled { return }
            misses = await server.isAnswering() ? 0 : misses + 1
            if misses >= watchMisses {
                stop.raise("\(server.name) stopped answering", atNanoseconds: nanoseconds(start.duration(to: .now)))
                return
            }
        }
    }

    /// Unanswered looks in a row that make a server dead (each look waits up to 2 s for an answer).
    static let watchMisses = 3

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(0, duration.components.seconds)) * 1_000_000_000 + UInt64(max(0, duration.components.attoseconds / 1_000_000_000))
    }

    /// Names the real server in the report, and fails the run when the server had a problem.
    private static func describe(_ server: any LoadServer, notes: [String], in report: inout RunReport) async {
        report.load?.server = server.name
        report.load?.serverNotes = notes
        if let problem = await server.problem(), report.failure == nil {
            report.passed = false
            report.failure = .init(kind: .load, message: "the server: \(problem)")
        }
    }

    /// On the simulator: one thread, virtual time, the request's seed and the scenarios' strategy
    /// (random, with the backend's concurrency window). Same request and binary ⇒ same report.
    package static func runVirtual(_ request: LoadRequest) -> RunReport {
        let profile = profile(request)
        var configuration = SimulationConfiguration(
            seed: request.seed, strategy: .random,
            timingWindowNanoseconds: profile.timingWindowNanoseconds)
        configuration.limits.maxSteps = .max
        configuration.recordsDecisions = false  // 4 bytes a step otherwise: memory would grow with the arrivals
        // Set-up, the executor, the graceful stop, and an hour for set-up's own retries.
        configuration.limits.maxVirtualNanoseconds = span(request) + 3_600_000_000_000
        let metrics = LoadMetrics(span: span(request))
        let result = Simulation.run(configuration) { () async -> Observed in
            let world = await profile.setUp(LoadProfile.Environment(
                seed: request.seed, variant: request.variant, clock: .virtual, epochUnixNanoseconds: SimClock().unixNanoseconds(at: SimClock().now)))
            let elapsed = await LoadDriver(request: request, users: profile.users, workload: world.workload, clock: world.clock, metrics: metrics, taskExecutor: world.taskExecutor).run()
            await world.workload.settle?()
            let observed = observations(world)
            return Observed(elapsed: elapsed, faults: observed.faults, coverage: observed.coverage, checks: world.workload.checks)
        }
        let observed = result.output
        var report = report(request, metrics.snapshot, elapsed: observed?.elapsed ?? 0, cores: 1)
        report.clock = .virtual
        report.strategy = "load \(request.modelDescription); simulator \(configuration.strategy)"
        report.steps = result.steps
        report.virtualNanoseconds = result.virtualNanoseconds
        report.traceHash = result.traceHash.description
        report.timingWindowNanoseconds = configuration.timingWindowNanoseconds
        report.choicePoints = result.choicePoints
        report.timingChoicePoints = Int(result.timingDecisions)
        report.faults = observed?.faults
        report.coverage = observed?.coverage
        judge(observed?.checks, in: &report)
        if !result.outcome.isSuccess && report.failure == nil {
            report.passed = false
            report.failure = .init(kind: .kernel, message: result.outcome.description)
            report.outcome = result.outcome.kind
        }
        return report
    }

    /// What the simulated run hands back besides the metrics.
    private struct Observed: Sendable {
        var elapsed: UInt64
        var faults: [FaultObservation]
        var coverage: [CoverageEntry]
        var checks: LoadCheckLog?
    }

    /// What the world's participants observed, summed.
    private static func observations(_ world: LoadProfile.World) -> (faults: [FaultObservation], coverage: [CoverageEntry]) {
        (world.participants.reduce([]) { FaultObservation.combining($0, $1.faultObservations) },
         world.participants.reduce([]) { CoverageEntry.combining($0, $1.coverage) })
    }

    private static func profile(_ request: LoadRequest) -> LoadProfile {
        guard let profile = LoadProfile.named(request.scenario) else { preconditionFailure("no load profile for \(request.scenario)") }
        return profile
    }

    /// How long the run can last: the executor's duration plus the graceful stop.
    private static func span(_ request: LoadRequest) -> UInt64 {
        LoadExecutor.nanoseconds(request.executor.duration) + LoadExecutor.nanoseconds(request.gracefulStop)
    }

    /// The load run's report: latency and thresholds from the measurements, the load summary and
    /// the parameters that name the model.
    private static func report(_ request: LoadRequest, _ state: LoadMetrics.State, elapsed: UInt64, cores: Int) -> RunReport {
        let latency = state.operations.keys.sorted().compactMap { operation in
            state.operations[operation].map { LatencySummary(operation: operation, measured: $0, seed: request.seed) }
        }
        let thresholds = request.thresholds.map { threshold in
            let observed = latency.first { $0.operation == threshold.operation }?.value(of: threshold.statistic)
            return RunReport.ThresholdResult(expression: threshold.expression, observedNanoseconds: observed, passed: observed.map(threshold.isMet(by:)) ?? false)
        }
        let abandoned = state.inFlight
        let failure = loadFailure(request, abandoned: abandoned, thresholds: thresholds)
        let durationNanoseconds = LoadExecutor.nanoseconds(request.executor.duration)
        var parameters: [String: Int] = ["durationMilliseconds": Int(durationNanoseconds / 1_000_000), "maxVUs": request.maxVUs]
        let errors = state.operations.filter { $0.value.failed > 0 }.mapValues(\.failed)
        var summary = LoadSummary(
            model: request.executor.isOpen ? "open" : "closed", executor: request.executor.name, description: request.modelDescription,
            durationNanoseconds: durationNanoseconds, iterationsStarted: state.started, iterationsCompleted: state.completed,
            achievedRatePerSecond: durationNanoseconds == 0 ? 0 : Double(state.started) / (Double(durationNanoseconds) / 1e9),
            throughputPerSecond: elapsed == 0 ? 0 : Double(state.completed) / (Double(elapsed) / 1e9),
            elapsedNanoseconds: elapsed, errors: errors, droppedIterations: state.dropped, maxVUs: request.maxVUs,
            peakInFlight: state.peakInFlight, abandoned: abandoned, cores: cores)
        describeExecutor(request, summary: &summary, parameters: &parameters)
        summary.shard = request.shard.map { "\($0.index)/\($0.count)" }
        summary.histograms = state.operations.mapValues { HdrHistogramCodec.encode($0.histogram) }
        let errorCount = errors.values.reduce(0, +)
        let clockName = request.clock == .wall ? "wall" : "virtual"
        let detail = "\(state.completed) iterations in \(ReportFormat.duration(elapsed)) \(clockName) (\(request.modelDescription)); "
            + "offered \(String(format: "%.1f", summary.achievedRatePerSecond))/s, throughput \(String(format: "%.1f", summary.throughputPerSecond))/s; "
            + "\(state.dropped) dropped, \(errorCount) failed operations"
        return RunReport(
            runId: request.runId,
            identity: RunIdentity(
                scenario: request.scenario, seed: request.seed, strategy: "load \(request.modelDescription)", variant: request.variant,
                parameters: parameters),
            passed: failure == nil, failure: failure, violation: nil,
            outcome: abandoned > 0 ? "drain-timeout" : "finished", outcomeDetail: detail,
            steps: UInt64(state.completed), virtualNanoseconds: elapsed, traceHash: "none",
            build: BuildFingerprint(commit: request.gitCommit ?? "unknown"), checks: [], latency: latency, thresholds: thresholds,
            timeline: [], droppedLatencySamples: 0, droppedTimelineEntries: 0, replayCommand: request.commandLine,
            clock: .wall, load: summary)
    }

    /// Why a load run failed: iterations still running after the graceful stop, else a missed threshold.
    private static func loadFailure(_ request: LoadRequest, abandoned: Int, thresholds: [RunReport.ThresholdResult]) -> RunReport.Failure? {
        if abandoned > 0 {
            return .init(kind: .load, message: "\(abandoned) iterations still running \(LoadStage.format(request.gracefulStop)) after the duration (abandoned)")
        } else if let missed = thresholds.first(where: { !$0.passed }) {
            let observedText = missed.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            return .init(kind: .threshold, message: "threshold \(missed.expression) missed (observed \(observedText))")
        }
        return nil
    }

    /// The executor's rates, stages, virtual users and think time, in the summary and as parameters.
    private static func describeExecutor(_ request: LoadRequest, summary: inout LoadSummary, parameters: inout [String: Int]) {
        switch request.executor {
        case .constantArrivalRate(let rate, _):
            summary.targetRatePerSecond = rate
            parameters["ratePerSecond"] = Int(rate)
        case .rampingArrivalRate(let start, let stages):
            summary.targetRatePerSecond = start
            summary.rampToPerSecond = stages.last?.target
            summary.stages = LoadStage.format(stages)
            parameters["ratePerSecond"] = Int(start)
            if let last = stages.last { parameters["rampToPerSecond"] = Int(last.target) }
        case .constantVUs(let vus, _):
            summary.virtualUsers = vus
        case .rampingVUs(_, let stages):
            summary.virtualUsers = request.executor.peakVUs
            summary.stages = LoadStage.format(stages)
        }
        if !request.executor.isOpen {
            summary.thinkTimeNanoseconds = LoadExecutor.nanoseconds(request.thinkTime)
            parameters["vus"] = request.executor.peakVUs
            parameters["thinkTimeMilliseconds"] = Int(LoadExecutor.nanoseconds(request.thinkTime) / 1_000_000)
        }
    }
}

extension LatencySummary {
    /// The summary of a load run's operation from its fixed-size measurements: percentiles from
    /// the HdrHistogram (µs, 3 significant digits), exact count, mean and maximum, the maximum's
    /// operation as exemplar, and the fastest/slowest series.
    init(operation: String, measured: LoadMetrics.Operation, seed: UInt64) {
        let histogram = measured.histogram
        func nanoseconds(_ percentile: Double) -> UInt64 { min(measured.max.latency, histogram.valueAtPercentile(percentile) * 1_000) }
        var points: [[Double]] = []
        for value in histogram.percentiles(ticksPerHalfDistance: 5) {
            points.append([value.percentile, Double(min(measured.max.latency, value.value * 1_000))])
        }
        var series: [[UInt64]] = []
        for (fastest, slowest) in zip(measured.fastest, measured.slowest) {
            guard let fastest, let slowest else { continue }
            let pair = fastest.end <= slowest.end ? [fastest, slowest] : [slowest, fastest]
            for point in pair where series.last != [point.end, point.latency] { series.append([point.end, point.latency]) }
        }
        let max = measured.max
        let details = Details(
            operation: operation, count: measured.count,
            p50Nanoseconds: nanoseconds(50), p90Nanoseconds: nanoseconds(90), p99Nanoseconds: nanoseconds(99),
            p999Nanoseconds: nanoseconds(99.9), maxNanoseconds: max.latency,
            meanNanoseconds: UInt64((measured.sumNanoseconds / Double(measured.count)).rounded()),
            exemplars: [Exemplar(
                percentile: "max", latencyNanoseconds: max.latency, seed: seed, step: max.sequence, user: "",
                intendedStartNanoseconds: max.intended, endNanoseconds: max.end)],
            spectrum: HgrmFile.text(microseconds: histogram), series: series, spectrumPoints: points)
        self.init(details: details)
    }
}
