import ArgumentParser
import Dispatch
import Foundation
import Harness
import Sim
import Synchronization

extension Rehearse {
    /// `rehearse fuzz <scenario> --seeds A..<B`: a sweep in isolated worker processes, each seed
    /// with its own swarm of faults; a failure artifact per failing seed (the first one shrunk),
    /// the nondeterminism check on a sample of seeds, Sometimes goals checked across the sweep,
    /// and a shard result JSON that `rehearse merge` combines.
    struct FuzzCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fuzz", abstract: "Run a scenario over a range of seeds.")

        @Argument(help: "Scenario name.")
        var scenario: String
        @Option(name: .long, parsing: .unconditional, help: "Seed range A..<B (the whole sweep; a shard runs its part; default 0..<1000).", transform: ArgumentValue.seedRange)
        var seeds: SeedRange = Self.defaultSeeds
        @Option(name: .long, parsing: .unconditional, help: "Worker processes run in parallel.")
        var jobs: Int = 1
        @Flag(name: .long, help: "Go on after the first failure.")
        var keepGoing = false
        @Flag(inversion: .prefixedNo, help: "Swarm testing: draw per seed which fault kinds are on and their rates (in a drawn world: every fault rate and outages).")
        var swarm = true
        @Option(name: .long, parsing: .unconditional, help: "How each seed's world is picked: swarm (draw every parameter not given with --param, fault rates and outages), guided (swarm, then favour worlds that reached new code), default (the scenario's defaults).", transform: ArgumentValue.worldMode)
        var world: WorldMode = .swarm
        @Flag(inversion: .prefixedNo, help: "Shrink the first failure (fewer parameters, faults, preemptions) into a replayable artifact.")
        var shrink = true
        @Option(name: .long, parsing: .unconditional, help: "Runs the shrinker may spend.")
        var shrinkRuns: Int = FailureShrinker.defaultMaxRuns
        @Option(name: .long, parsing: .unconditional, help: "Run one seed in N twice to check determinism (0: off).")
        var determinismEvery: Int = SweepRunner.defaultDeterminismEvery
        @Option(name: .long, parsing: .unconditional, help: "Run shard i of n of the seed range, e.g. 0/4.", transform: ArgumentValue.shard)
        var shard: ShardSelection?
        @Flag(name: .long, help: "Take the shard from the job array: JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm job array).")
        var shardFromEnv = false
        @Option(name: .long, parsing: .unconditional, help: "Shard count with --shard-from-env (default: JOB_COMPLETIONS or SLURM_ARRAY_TASK_COUNT).")
        var shards: Int?
        @Option(name: .long, parsing: .unconditional, help: "Where to write the shard result JSON (default: <report-dir>/<scenario>/sweep[-shard-i-of-n].json).")
        var result: String?
        @Flag(name: .long, help: "Run seeds in this process (no crash isolation).")
        var inProcess = false
        @Option(name: .long, parsing: .unconditional, help: "Also write a JUnit XML report here (a test case per check over the sweep, failures with their seeds and replay lines).")
        var junit: String?
        @Flag(name: .long, help: "Continue the sweep recorded in the result file (after a kill or a stop): skip its seeds; the scenario, strategy, variant, parameters, swarm, thresholds and range must match.")
        var resume = false
        @OptionGroup var options: RunOptions

        /// The sweep `rehearse fuzz <scenario>` runs without `--seeds`: a thousand seeds, the size at
        /// which the bug zoo's planted variants are measured (docs/zoo.md).
        static let defaultSeeds = SeedRange(low: 0, high: 1000)

        /// Seeds between two progressive writes of the result file, and the longest wall-clock
        /// gap between them: a killed sweep loses at most this much work.
        static let checkpointSeeds = 100
        static let checkpointInterval = Duration.seconds(5)

        /// What a sweep resolved before running a seed: its range, runner, result file and the
        /// seeds still to run.
        struct Plan {
            var range: SeedRange
            var selection: ShardSelection?
            var runner: SweepRunner
            var resultPath: String
            var failureDirectory: String
            var initial: SweepResult
            var pending: [SeedRange]
            var build: BuildFingerprint
            /// An earlier sweep's result file this sweep replaces (not resumed).
            var replaces: Bool = false
        }

        func run() throws {
            let plan = try makePlan()
            let recorder = SweepRecorder(plan.initial, path: plan.resultPath)
            try recorder.checkpoint()
            try runSeeds(plan, recorder: recorder)
            try finish(plan, result: recorder.result, recorder: recorder)
        }

        /// Validates every input and resolves the sweep (bad input throws before any seed runs).
        func makePlan() throws -> Plan {
            try Limits.check(jobs, in: Limits.jobs, option: "--jobs", limit: "jobs")
            try Limits.check(determinismEvery, in: Limits.determinismEvery, option: "--determinism-every", limit: "determinismEvery")
            try Limits.check(shrinkRuns, in: Limits.shrinkRuns, option: "--shrink-runs", limit: "shrinkRuns")
            let selection = try ShardSelection.resolve(
                shard: shard, fromEnvironment: shardFromEnv, shards: shards, environment: ProcessInfo.processInfo.environment)
            let range = selection.map { seeds.shard($0.index, of: $0.count, aligned: world == .guided ? WorldGuide.blockSize : 1) } ?? seeds
            let prepared = try options.prepared(scenario: scenario, seed: range.low, defaultStrategy: .portfolio)
            let resultPath = result ?? "\(options.reportDir)/\(scenario)/sweep\(selection.map { "-shard-\($0.index)-of-\($0.count)" } ?? "").json"
            do { try AtomicFile.refuseUnusualTarget(resultPath) } catch { throw InputError.fail("--result: \(error.description)") }
            guard !resultPath.isEmpty else { throw InputError.fail("--result is empty") }
            try JUnitOutput.check(junit)
            let build = Fingerprint.current
            var planned = SweepRunner(prepared: prepared, swarm: swarm, determinismEvery: determinismEvery, failureDirectory: nil)
            planned.world = world
            var initial = planned.emptyResult(range: range, shard: selection?.label, build: build)
            if world == .guided { initial.guide = GuideRecord(origin: seeds.low) }
            if resume {
                let previous: SweepResult
                do { previous = try SweepResult.read(resultPath) } catch { throw InputError.fail("--resume: \(error.description)") }
                if let mismatch = Self.resumeMismatch(previous, initial) {
                    throw InputError.fail("--resume: \(resultPath) recorded a different sweep (\(mismatch)); run with the same flags or without --resume")
                }
                initial = previous
            }
            // One folder per sweep (a resume continues in its own): artifacts of an older sweep
            // into the same report folder never mix with this one's.
            let failureDirectory = initial.failureDirectory ?? Self.newFailureDirectory(options.reportDir, scenario: scenario, range: range, shard: selection)
            initial.failureDirectory = failureDirectory
            var runner = SweepRunner(prepared: prepared, swarm: swarm, determinismEvery: determinismEvery, failureDirectory: failureDirectory)
            runner.world = world
            return Plan(
                range: range, selection: selection, runner: runner, resultPath: resultPath, failureDirectory: failureDirectory,
                initial: initial, pending: Self.gaps(in: range, done: initial.ranges), build: build,
                replaces: !resume && FileManager.default.fileExists(atPath: resultPath))
        }

        /// Runs the pending seeds (in worker processes, or here with --in-process), recording each.
        func runSeeds(_ plan: Plan, recorder: SweepRecorder) throws {
            let remaining = plan.pending.reduce(0) { $0 + $1.count }
            let template = plan.runner.template
            print("\(ScenarioRegistry.commandName) fuzz \(scenario) seeds=\(plan.range)\(plan.selection.map { " shard=\($0.label) of \(seeds)" } ?? "") strategy=\(template.strategy) variant=\(template.variant ?? "careful") world=\(world) swarm=\(swarm ? "on" : "off") determinism=\(determinismEvery == 0 ? "off" : "1/\(determinismEvery)") build=\(plan.build)\(resume ? " resuming: \(plan.initial.seedsRun) done, \(remaining) to run" : "")")
            if plan.replaces { print("replacing \(plan.resultPath), an earlier sweep's result (--resume continues it; --result writes elsewhere)") }
            let progress = ProgressBar(total: remaining, label: "fuzz \(scenario)", quiet: options.quiet)
            defer { progress.finish() }
            guard remaining > 0 else { return }
            let completed = Atomic<Int>(0)
            let tick: @Sendable () -> Void = { progress.update(completed.add(1, ordering: .relaxed).newValue) }
            if world == .guided {
                for phase in Self.guidedPhases(plan) {
                    let chosen = phase.guided ? guidedWorlds(phase.seeds, plan: plan, recorder: recorder) : [:]
                    guard try run(phase.seeds, chosen: chosen, plan: plan, recorder: recorder, tick: tick) else { return }
                }
                return
            }
            _ = try run(plan.pending, chosen: [:], plan: plan, recorder: recorder, tick: tick)
        }

        /// Runs `pending` (with `chosen` worlds for some seeds) in workers or here; false when the
        /// sweep stopped at a failure.
        func run(_ pending: [SeedRange], chosen: [UInt64: World], plan: Plan, recorder: SweepRecorder, tick: @escaping @Sendable () -> Void) throws -> Bool {
            guard !pending.isEmpty else { return true }
            var runner = plan.runner
            runner.chosenWorlds = chosen
            if inProcess {
                for part in pending {
                    for seed in part.low..<part.high {
                        let (seedResult, _) = runner.run(seed: seed)
                        recorder.add(seedResult)
                        tick()
                        if !seedResult.passed && !keepGoing { return false }
                    }
                }
                return true
            }
            let directory = plan.failureDirectory, build = plan.build
            var arguments = workerArguments(plan)
            if !chosen.isEmpty { arguments += ["--worlds", try Self.writeWorlds(chosen, directory: directory, first: pending[0].low)] }
            let stopped = Atomic<Bool>(false)
            let crashRunner = runner
            try WorkerPool(workerArguments: arguments, pending: pending, jobs: jobs, stopAtFirstFailure: !keepGoing).run(
                onResult: { seedResult in
                    recorder.add(seedResult)
                    tick()
                    if !seedResult.passed { stopped.store(true, ordering: .relaxed) }
                    return true
                },
                onCrash: { crash in
                    let failure = Self.recordCrash(crash, runner: crashRunner, directory: directory, build: build)
                    recorder.add(SweepSeedResult(seed: crash.seed, passed: false, failure: failure, reached: [], deterministic: nil, histograms: [:]))
                    tick()
                    stopped.store(true, ordering: .relaxed)
                    return true
                })
            return keepGoing || !stopped.load(ordering: .relaxed)
        }

        /// A guided sweep's phases over the pending seeds, in order: each block's blind seeds, then
        /// its guided ones.
        static func guidedPhases(_ plan: Plan) -> [(seeds: [SeedRange], guided: Bool)] {
            let origin = plan.initial.guide?.origin ?? plan.range.low
            var phases: [(seeds: [SeedRange], guided: Bool)] = []
            var block = WorldGuide.block(of: plan.range.low, origin: origin).low
            while block < plan.range.high {
                let blindEnd = min(block &+ WorldGuide.blindSeeds, plan.range.high)
                let blockEnd = min(block &+ WorldGuide.blockSize, plan.range.high)
                phases.append((intersect(plan.pending, SeedRange(low: block, high: blindEnd)), false))
                if blindEnd < blockEnd { phases.append((intersect(plan.pending, SeedRange(low: blindEnd, high: blockEnd)), true)) }
                guard blockEnd > block, blockEnd < plan.range.high else { break }
                block = blockEnd
            }
            return phases
        }

        /// The parts of `ranges` inside `bounds`.
        static func intersect(_ ranges: [SeedRange], _ bounds: SeedRange) -> [SeedRange] {
            ranges.compactMap { range in
                let low = max(range.low, bounds.low), high = min(range.high, bounds.high)
                return low < high ? SeedRange(low: low, high: high) : nil
            }
        }

        /// The worlds of guided seeds: mutations of their block's corpus (made now from the blind seeds).
        func guidedWorlds(_ ranges: [SeedRange], plan: Plan, recorder: SweepRecorder) -> [UInt64: World] {
            guard let first = ranges.first else { return [:] }
            let origin = plan.initial.guide?.origin ?? plan.range.low
            let corpus = recorder.corpus(block: WorldGuide.block(of: first.low, origin: origin).low)
            let runner = plan.runner
            var worlds: [UInt64: World] = [:]
            for range in ranges {
                for seed in range.low..<range.high {
                    worlds[seed] = WorldGuide.world(
                        seed: seed, corpus: corpus, scenario: runner.prepared.scenario, pinned: runner.template.parameters,
                        drawsFaults: runner.swarm, blind: runner.world(seed: seed))
                }
            }
            return worlds
        }

        /// Writes the worlds chosen for a guided phase where its workers read them.
        static func writeWorlds(_ worlds: [UInt64: World], directory: String, first: UInt64) throws -> String {
            let path = "\(directory)/guided-worlds-\(first).json"
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let entries = worlds.keys.sorted().map { ChosenWorld(seed: $0, world: worlds[$0]!) }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try AtomicFile.write(String(decoding: try encoder.encode(entries), as: UTF8.self), to: path)
            } catch { throw InputError.fail("cannot write the guided worlds to \(path): \(error)") }
            return path
        }

        /// Prints the failures and checks, shrinks the first failure, writes the result, page and JUnit.
        func finish(_ plan: Plan, result final: SweepResult, recorder: SweepRecorder) throws {
            for failure in final.failures {
                print("FAIL seed \(failure.seed): \(failure.kind): \(failure.message)")
                if let artifact = failure.artifact { print("  replay: \(ScenarioRegistry.commandName) replay \(artifact)") }
            }
            var shrunkArtifact: (artifact: FailureArtifact, path: String)?
            if shrink, let first = final.failures.first(where: { $0.kind != .crash && $0.kind != .nondeterminism && !$0.isStuckJob }) {
                let shrunk = try FailureShrinker.shrink(plan.runner.request(seed: first.seed), maxRuns: shrinkRuns)
                let path = "\(plan.failureDirectory)/\(shrunk.artifact.fileName)"
                try shrunk.artifact.write(to: path)
                Self.printShrunk(shrunk.artifact, path: path)
                shrunkArtifact = (shrunk.artifact, path)
            }
            Self.printChecks(final)
            try recorder.checkpoint(force: true)
            let coverage = final.coverageSummary
            print("\(final.seedsRun) seeds run, \(final.seedsPassed) passed, \(final.failures.count) failed\(coverage.isEmpty ? "" : "; \(coverage)")")
            if final.seedsRun < plan.range.count {
                print("stopped after \(final.seedsRun) of \(plan.range.count) seeds (recorded: \(final.ranges.map(\.description).joined(separator: ", "))); go on with --resume\(keepGoing ? "" : " --keep-going")")
            }
            if !final.failures.isEmpty { print("failures: \(plan.failureDirectory)") }
            print("result: \(plan.resultPath)")
            print("page: \(try SweepPage.write(final, resultPath: plan.resultPath, shrunk: shrunkArtifact))")
            try JUnitOutput.write(JUnitReport.sweep(final, command: "\(ScenarioRegistry.commandName) fuzz"), to: junit)
            if !final.passed { throw ExitCode(1) }
        }

        /// The replay check, the determinism check and the faults observed against expected.
        static func printChecks(_ final: SweepResult) {
            let verified = final.failures.compactMap(\.replayed)
            if !verified.isEmpty {
                let reproduced = verified.filter { $0 }.count
                print("replay check: \(reproduced) of \(verified.count) failure artifact(s) replayed to the same check, step and trace\(reproduced == verified.count ? "" : "; NOT replayed: seeds " + final.failures.filter { $0.replayed == false }.map { "\($0.seed)" }.joined(separator: ", "))")
            }
            let checked = final.determinismChecked.count
            print("nondeterminism check: \(checked) seed(s) run twice\(final.failures.contains { $0.kind == .nondeterminism } ? ", MISMATCH" : ", all deterministic")")
            if let faults = final.faults, !faults.isEmpty {
                print("faults observed/expected: " + faults.map(\.summary).joined(separator: "; "))
            }
        }

        /// Why `previous` (a result file) is not the sweep `current` describes; nil when it is.
        static func resumeMismatch(_ previous: SweepResult, _ current: SweepResult) -> String? {
            if previous.scenario != current.scenario { return "scenario \(previous.scenario), not \(current.scenario)" }
            if previous.strategy != current.strategy { return "strategy \(previous.strategy), not \(current.strategy)" }
            if previous.variant != current.variant { return "variant \(previous.variant ?? "careful"), not \(current.variant ?? "careful")" }
            if previous.parameters != current.parameters { return "parameters \(previous.parameters.sorted { $0.key < $1.key }), not \(current.parameters.sorted { $0.key < $1.key })" }
            if previous.swarm != current.swarm { return "swarm \(previous.swarm ? "on" : "off"), not \(current.swarm ? "on" : "off")" }
            if (previous.world ?? .default) != (current.world ?? .default) { return "world \(previous.world ?? .default), not \(current.world ?? .default)" }
            if (previous.thresholds ?? []) != (current.thresholds ?? []) { return "thresholds \(previous.thresholds ?? []), not \(current.thresholds ?? [])" }
            if previous.shard != current.shard { return "shard \(previous.shard ?? "none"), not \(current.shard ?? "none")" }
            if let requested = previous.requested, requested != current.requested { return "range \(requested), not \(current.requested.map(\.description) ?? "?")" }
            return nil
        }

        /// The seeds of `range` not in `done` (sorted, disjoint), as ranges.
        static func gaps(in range: SeedRange, done: [SeedRange]) -> [SeedRange] {
            var result: [SeedRange] = []
            var low = range.low
            for part in done where part.high > low && part.low < range.high {
                if part.low > low { result.append(SeedRange(low: low, high: part.low)) }
                low = max(low, part.high)
            }
            if low < range.high { result.append(SeedRange(low: low, high: range.high)) }
            return result
        }

        /// `<report-dir>/<scenario>/failures/<range>[-shard-i-of-n]-<UTC time>-<pid>`: unique per
        /// sweep (the wall clock only names the folder; nothing simulated reads it).
        static func newFailureDirectory(_ reportDir: String, scenario: String, range: SeedRange, shard: ShardSelection?) -> String {
            var time = time_t(Date().timeIntervalSince1970)
            var parts = tm()
            gmtime_r(&time, &parts)
            let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
            let shardPart = shard.map { "-shard-\($0.index)-of-\($0.count)" } ?? ""
            return "\(reportDir)/\(scenario)/failures/\(range.low)-\(range.high)\(shardPart)-\(stamp)-\(getpid())"
        }

        /// The worker's command line: the sweep's run options (the one encoder, `RunCommandLine`),
        /// its swarm flag, sampling and failure folder.
        func workerArguments(_ plan: Plan) -> [String] {
            [scenario] + plan.runner.template.commandLine.options
                + ["--failure-dir", plan.failureDirectory, "--determinism-every", "\(determinismEvery)", swarm ? "--swarm" : "--no-swarm", "--world", world.rawValue]
        }

        /// Writes the crash artifact of a worker that died on a seed.
        static func recordCrash(_ crash: WorkerPool.Crash, runner: SweepRunner, directory: String, build: BuildFingerprint) -> SweepFailure {
            let run = runner.prepared(seed: crash.seed)
            let request = run.request
            let cause = crash.signal.map { "signal \($0)" } ?? "exit status \(crash.status)"
            let lastError = crash.standardError.split(separator: "\n").first {
                $0.contains("Fatal error") || $0.contains("failed:") || $0.hasPrefix("rehearsal watchdog:")
            }.map(String.init)
            let message = "worker died with \(cause) on seed \(crash.seed)\(lastError.map { ": \($0)" } ?? "")"
            let artifact = FailureArtifact(
                kind: .crash, identity: RunIdentity(
                    scenario: request.scenario, seed: crash.seed, strategy: request.strategy.description, variant: request.variant,
                    parameters: run.parameters.values, swarm: request.swarm, world: request.world),
                decisions: [],
                violation: nil, message: message, signal: crash.signal ?? 0, build: build, story: [message],
                timingWindowNanoseconds: request.effectiveTimingWindowNanoseconds)
            let path = "\(directory)/\(artifact.fileName)"
            let written = (try? artifact.write(to: path)) != nil
            var failure = SweepFailure(seed: crash.seed, kind: .crash, check: nil, step: nil, message: message, artifact: written ? path : nil)
            failure.world = request.world
            return failure
        }

        static func printShrunk(_ artifact: FailureArtifact, path: String) {
            if let shrink = artifact.shrink {
                let changed = artifact.parameters.keys.sorted().filter { shrink.parametersBefore[$0] != artifact.parameters[$0] }
                    .map { "\($0) \(shrink.parametersBefore[$0]!)→\(artifact.parameters[$0]!)" }
                print("shrunk seed \(artifact.seed) in \(shrink.runs) runs: preemptions \(shrink.preemptionsBefore)→\(shrink.preemptionsAfter); fault kinds \(shrink.faultKindsBefore.count)→\(shrink.faultKindsAfter.count); parameters \(changed.isEmpty ? "unchanged" : changed.joined(separator: ", "))")
                if let ending = shrink.parametersEnding { print("  parameters: \(ending)") }
                if let search = shrink.scheduleSearch { print("  schedule: \(search)") }
                if let needs = shrink.needs { print("world: \(needs.joined(separator: "; "))") }
            }
            print("story:")
            for line in artifact.story { print("  \(line)") }
            for line in FailureArtifact.replayLines(path: path, scenario: artifact.scenario) { print(line) }
        }
    }
}
