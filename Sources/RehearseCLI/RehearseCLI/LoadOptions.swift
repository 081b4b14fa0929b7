import Foundation
import ArgumentParser
import Harness

/// The options of a load run, shared by `rehearse load` and `rehearse compare <scenario>`: the
/// k6 executor (inferred from the flags given), the clock, the design and the thresholds.
struct LoadOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "k6 executor: constant-arrival-rate, ramping-arrival-rate, constant-vus or ramping-vus (default: inferred from --rate/--vus/--stages/--ramp-to).")
    var executor: LoadExecutorName?
    @Option(name: .long, parsing: .unconditional, help: "Open model: arrivals per second (the start rate with --stages/--ramp-to), up to 100000/s, e.g. 500/s, 50, 600/m.", transform: ArgumentValue.rate)
    var rate: Double?
    @Option(name: .customLong("ramp-to"), parsing: .unconditional, help: "Open model: ramp the rate linearly to this over --duration, e.g. 200/s (one stage).", transform: ArgumentValue.rate)
    var rampTo: Double?
    @Option(name: .long, parsing: .unconditional, help: "Closed model: virtual users (the start count with --stages), each looping iteration → think time.")
    var vus: Int?
    @Option(name: .long, parsing: .unconditional, help: "Ramping executors: k6 stages duration:target, e.g. '30s:100,1m:500' (rates per second, or VUs with --vus; at most 24h in all).", transform: ArgumentValue.stages)
    var stages: [LoadStage]?
    @Option(name: .customLong("think-time"), parsing: .unconditional, help: "Closed model: pause after each iteration, up to 1h, e.g. 100ms (default 0).", transform: ArgumentValue.thinkTime)
    var thinkTime: Duration?
    @Option(name: .long, parsing: .unconditional, help: "How long iterations keep starting, more than 0 and up to 24h, e.g. 10s, 500ms, 10m (not with --stages).", transform: ArgumentValue.loadDuration)
    var duration: Duration?
    @Option(name: [.customLong("max-vus"), .customLong("max-in-flight")], parsing: .unconditional, help: "Open model: k6's maxVUs, the bound on iterations running at once; arrivals beyond it are dropped and counted.")
    var maxVUs: Int = 10_000
    @Option(name: .customLong("graceful-stop"), parsing: .unconditional, help: "How long iterations still running after the duration may finish before they are abandoned, up to 1h (default 60s).", transform: ArgumentValue.gracefulStop)
    var gracefulStop: Duration = .seconds(60)
    @Flag(name: .long, help: "Run on the simulator in virtual time (one core, reproducible by --seed) instead of the real runtime's wall clock.")
    var virtual = false
    @Option(name: .long, parsing: .unconditional, help: "Seed of the run's randomness (virtual runs: the whole run).", transform: Limits.seed)
    var seed: UInt64 = 1
    @Option(name: .long, parsing: .singleValue, help: "Latency threshold such as placeBid.p99<2s (repeatable).", transform: ArgumentValue.threshold)
    var threshold: [Threshold] = []
    @Option(name: .long, parsing: .unconditional, help: "The backend under load: simulated (default), or a real server: emulator (Google's Firestore emulator, started for the run), emulator=HOST:PORT (one already running, with --functions-port), or firestore (a real project: --project P, token in REHEARSAL_FIRESTORE_TOKEN).")
    var backend: String = "simulated"
    @Option(name: .long, parsing: .unconditional, help: "Run share i of n of the load, e.g. 0/4: every n-th arrival of the whole schedule from the i-th (open model), or every n-th virtual user (closed); `rehearse merge` combines the shards' reports.", transform: ArgumentValue.shard)
    var shard: ShardSelection?
    @Flag(name: .customLong("shard-from-env"), help: "Take the shard from the job array: JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm job array).")
    var shardFromEnv = false
    @Option(name: .long, parsing: .unconditional, help: "Shard count with --shard-from-env (default: JOB_COMPLETIONS or SLURM_ARRAY_TASK_COUNT).")
    var shards: Int?
    @Option(name: .long, parsing: .unconditional, help: "With --backend firestore: the Firebase project id (its token in REHEARSAL_FIRESTORE_TOKEN).")
    var project: String?
    @Option(name: .customLong("functions-port"), parsing: .unconditional, help: "With --backend emulator: the loopback port trigger events are posted to (the emulator's --functions_emulator 127.0.0.1:PORT; default a free one).")
    var functionsPort: String?

    /// The real server `--backend` names (nil: the simulated backend), validated; started later.
    func serverChoice(for profile: LoadProfile) throws -> (name: String, address: String?, options: [String: String])? {
        let parts = backend.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        if name == "simulated" && parts.count == 1 {
            if functionsPort != nil { throw InputError.fail("--functions-port belongs to --backend emulator") }
            if project != nil { throw InputError.fail("--project belongs to --backend firestore") }
            return nil
        }
        if name != "firestore" && project != nil { throw InputError.fail("--project belongs to --backend firestore") }
        if name != "emulator" && functionsPort != nil { throw InputError.fail("--functions-port belongs to --backend emulator") }
        guard LoadServers.starter(name) != nil else {
            throw InputError.fail("--backend \(backend): one of simulated, \(LoadServers.usages.joined(separator: ", "))")
        }
        if virtual { throw InputError.fail("--virtual runs on the simulator; a real server (--backend \(backend)) runs on the wall clock") }
        guard profile.runsOnRealServer else {
            let able = LoadProfile.all.filter(\.runsOnRealServer).map(\.scenario)
            throw InputError.fail("\(profile.scenario)'s load profile does not run on a real server yet; these do: \(able.joined(separator: ", "))")
        }
        let address = parts.count == 2 ? parts[1] : nil
        if name == "emulator", let address, LoopbackAddress(parsing: address) == nil {
            throw InputError.fail("--backend \(backend): HOST:PORT with a loopback host (127.0.0.1, localhost or ::1)")
        }
        var options: [String: String] = [:]
        if let functionsPort { options["functions-port"] = functionsPort }
        if let project { options["project"] = project }
        return (name, address, options)
    }

    /// The validated request for `scenario` (bad input → exit 2 with one line).
    func request(scenario: String, variant: String?) throws -> LoadRequest {
        let definition: any Scenario
        do { definition = try ScenarioRegistry.scenario(named: scenario) } catch { throw InputError.fail(error.description) }
        guard let profile = LoadProfile.named(scenario) else {
            throw InputError.fail("scenario \(scenario) has no load profile; load mode supports: \(LoadRunner.profiledScenarios.joined(separator: ", "))")
        }
        if let variant, !definition.variants.contains(variant) {
            throw InputError.fail("variant '\(variant)' is not a variant of \(scenario); variants: \(definition.variants.joined(separator: ", "))")
        }
        let executor = try makeExecutor()
        if thinkTime != nil && executor.isOpen { throw InputError.fail("--think-time belongs to the closed model (--vus)") }
        try Limits.check(maxVUs, in: Limits.loadInFlight, option: "--max-vus", limit: "loadInFlight")
        for threshold in self.threshold where !profile.operations.contains(threshold.operation) {
            throw InputError.fail("threshold '\(threshold.expression)' names no operation of \(scenario)'s load profile; operations: \(profile.operations.joined(separator: ", "))")
        }
        var request = LoadRequest(
            scenario: scenario, executor: executor, thinkTime: thinkTime ?? .zero, clock: virtual ? .virtual : .wall, variant: variant,
            thresholds: threshold, seed: seed, maxVUs: maxVUs, gracefulStop: gracefulStop, gitCommit: Fingerprint.current.commit,
            commandLine: (["rehearse"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
        let selection = try ShardSelection.resolve(shard: shard, fromEnvironment: shardFromEnv, shards: shards, environment: ProcessInfo.processInfo.environment)
        request.shard = selection.map { LoadShard(index: $0.index, count: $0.count) }
        return request
    }

    /// The executor the flags describe.
    func makeExecutor() throws -> LoadExecutor {
        let parsedStages = stages
        if parsedStages != nil && duration != nil { throw InputError.fail("--stages sets the duration; drop --duration") }
        if parsedStages != nil && rampTo != nil { throw InputError.fail("--ramp-to and --stages exclude each other (--ramp-to R is the one stage '<duration>:R')") }
        func fixedDuration() throws -> Duration {
            guard let duration else { throw InputError.fail("give --duration (e.g. 10s) or --stages (e.g. '30s:100,1m:500')") }
            return duration
        }
        let result: LoadExecutor
        switch (rate, vus) {
        case (nil, nil): throw InputError.fail("give --rate R/s (open model) or --vus N (closed model)")
        case (.some, .some): throw InputError.fail("--rate (open model) and --vus (closed model) exclude each other")
        case (let start?, nil):
            guard start > 0 || parsedStages != nil else { throw InputError.fail("--rate 0 needs --stages to ramp it up; give a positive rate up to 100000/s, like 50/s") }
            if let parsedStages {
                for stage in parsedStages where stage.target > ArgumentValue.maximumRate {
                    throw InputError.fail("--stages target \(stage.target) must be a rate up to 100000/s")
                }
                result = .rampingArrivalRate(startRate: start, stages: parsedStages)
            } else if let rampTo {
                let target = rampTo
                result = .rampingArrivalRate(startRate: start, stages: [LoadStage(duration: try fixedDuration(), target: target)])
            } else {
                result = .constantArrivalRate(rate: start, duration: try fixedDuration())
            }
        case (nil, let users?):
            guard rampTo == nil else { throw InputError.fail("--ramp-to belongs to the open model (--rate); ramp VUs with --stages") }
            if let parsedStages {
                try Limits.check(users, in: 0...Limits.loadUsers.upperBound, option: "--vus", limit: "loadUsers")
                for stage in parsedStages {
                    guard stage.target == stage.target.rounded(), Int(exactly: stage.target).map(Limits.loadUsers.contains) ?? false || stage.target == 0 else {
                        throw InputError.fail("--stages target \(stage.target) must be a whole number of VUs in 0...\(Limits.loadUsers.upperBound)")
                    }
                }
                result = .rampingVUs(startVUs: users, stages: parsedStages)
            } else {
                try Limits.check(users, in: Limits.loadUsers, option: "--vus", limit: "loadUsers")
                result = .constantVUs(vus: users, duration: try fixedDuration())
            }
        }
        guard result.duration > .zero, result.duration <= .seconds(24 * 3600) else {
            throw InputError.fail("the stages last \(result.duration); a load run lasts more than 0s and at most 24h")
        }
        if let executor, executor.rawValue != result.name {
            throw InputError.fail("--executor \(executor.rawValue) does not match the flags given, which describe \(result.name)")
        }
        return result
    }
}
