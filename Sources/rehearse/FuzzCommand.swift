import ArgumentParser
import Dispatch
import Foundation
import Scenarios
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
        @Option(name: .long, help: "Seed range A..<B (the whole sweep; a shard runs its part).")
        var seeds: String
        @Option(name: .long, help: "Worker processes run in parallel.")
        var jobs: Int = 1
        @Flag(name: .long, help: "Go on after the first failure.")
        var keepGoing = false
        @Flag(inversion: .prefixedNo, help: "Swarm testing: draw per seed which fault kinds are on and their rates.")
        var swarm = true
        @Flag(inversion: .prefixedNo, help: "Shrink the first failure (fewer parameters, faults, preemptions) into a replayable artifact.")
        var shrink = true
        @Option(name: .long, help: "Runs the shrinker may spend.")
        var shrinkRuns: Int = FailureShrinker.defaultMaxRuns
        @Option(name: .long, help: "Run one seed in N twice to check determinism (0: off).")
        var determinismEvery: Int = SweepRunner.defaultDeterminismEvery
        @Option(name: .long, help: "Run shard i of n of the seed range, e.g. 0/4.")
        var shard: String?
        @Flag(name: .long, help: "Take the shard index from JOB_COMPLETION_INDEX (Kubernetes Indexed Job).")
        var shardFromEnv = false
        @Option(name: .long, help: "Shard count with --shard-from-env (default: JOB_COMPLETIONS).")
        var shards: Int?
        @Option(name: .long, help: "Where to write the shard result JSON (default: <report-dir>/<scenario>/sweep[-shard-i-of-n].json).")
        var result: String?
        @Flag(name: .long, help: "Run seeds in this process (no crash isolation).")
        var inProcess = false
        @OptionGroup var options: RunOptions

        func run() throws {
            let whole: SeedRange
            do { whole = try SeedRange(parsing: seeds) } catch { throw InputError.fail(error.description) }
            guard jobs >= 1, jobs <= 64 else { throw InputError.fail("--jobs \(jobs) must be in 1...64") }
            guard determinismEvery >= 0 else { throw InputError.fail("--determinism-every \(determinismEvery) must be 0 or more") }
            guard shrinkRuns >= 1 else { throw InputError.fail("--shrink-runs \(shrinkRuns) must be at least 1") }
            let selection = try ShardSelection.resolve(
                shard: shard, fromEnvironment: shardFromEnv, shards: shards, environment: ProcessInfo.processInfo.environment)
            let range = selection.map { whole.shard($0.index, of: $0.count) } ?? whole
            let template = try options.request(scenario: scenario, seed: range.low, defaultStrategy: .portfolio)
            let failureDirectory = "\(options.reportDir)/\(scenario)/failures"
            let runner = SweepRunner(template: template, swarm: swarm, determinismEvery: determinismEvery, failureDirectory: failureDirectory)
            let build = Fingerprint.current
            print("rehearse fuzz \(scenario) seeds=\(range)\(selection.map { " shard=\($0.label) of \(whole)" } ?? "") strategy=\(template.strategy) variant=\(template.variant ?? "careful") swarm=\(swarm ? "on" : "off") determinism=\(determinismEvery == 0 ? "off" : "1/\(determinismEvery)") build=\(build)")
            let sweep = Mutex(try runner.emptyResult(range: range, shard: selection?.label, build: build))
            let progress = ProgressBar(total: range.count, label: "fuzz \(scenario)", quiet: options.quiet)
            let completed = Atomic<Int>(0)
            let tick: @Sendable () -> Void = { progress.update(completed.add(1, ordering: .relaxed).newValue) }
            if range.count > 0 {
                if inProcess {
                    for seed in range.low..<range.high {
                        let (seedResult, _) = try runner.run(seed: seed)
                        sweep.withLock { $0.add(seedResult) }
                        tick()
                        if !seedResult.passed && !keepGoing { break }
                    }
                } else {
                    try WorkerPool(workerArguments: workerArguments(failureDirectory), range: range, jobs: jobs, stopAtFirstFailure: !keepGoing).run(
                        onResult: { seedResult in sweep.withLock { $0.add(seedResult) }; tick(); return true },
                        onCrash: { crash in
                            let failure = Self.recordCrash(crash, runner: runner, directory: failureDirectory, build: build)
                            sweep.withLock { $0.add(SweepSeedResult(seed: crash.seed, passed: false, failure: failure, reached: [], deterministic: nil, histograms: [:])) }
                            tick()
                            return true
                        })
                }
            }
            progress.finish()
            let final = sweep.withLock { $0 }
            for failure in final.failures {
                print("FAIL seed \(failure.seed): \(failure.kind): \(failure.message)")
                if let artifact = failure.artifact { print("  replay: rehearse replay \(artifact)") }
            }
            if shrink, let first = final.failures.first(where: { $0.kind != "crash" && $0.kind != "nondeterminism" }) {
                let shrunk = try FailureShrinker.shrink(runner.request(seed: first.seed), maxRuns: shrinkRuns)
                let path = "\(failureDirectory)/\(shrunk.artifact.fileName)"
                try shrunk.artifact.write(to: path)
                Self.printShrunk(shrunk.artifact, path: path)
            }
            let checked = final.determinismChecked.count
            print("nondeterminism check: \(checked) seed(s) run twice\(final.failures.contains { $0.kind == "nondeterminism" } ? ", MISMATCH" : ", all deterministic")")
            let resultPath = result ?? "\(options.reportDir)/\(scenario)/sweep\(selection.map { "-shard-\($0.index)-of-\($0.count)" } ?? "").json"
            try AtomicFile.write(final.json(), to: resultPath)
            let coverage = final.coverageSummary
            print("\(final.seedsRun) seeds run, \(final.seedsPassed) passed, \(final.failures.count) failed\(coverage.isEmpty ? "" : "; \(coverage)")")
            print("result: \(resultPath)")
            if !final.passed { throw ExitCode(1) }
        }

        /// The worker's command line: the same run options, swarm and sampling.
        func workerArguments(_ failureDirectory: String) -> [String] {
            var arguments = [scenario, "--strategy", options.strategy ?? "portfolio", "--failure-dir", failureDirectory, "--determinism-every", "\(determinismEvery)"]
            if let window = options.timingWindow { arguments += ["--timing-window", window] }
            arguments.append(swarm ? "--swarm" : "--no-swarm")
            for pair in options.param { arguments += ["--param", pair] }
            if let variant = options.variant { arguments += ["--variant", variant] }
            for threshold in options.threshold { arguments += ["--threshold", threshold] }
            return arguments
        }

        /// Writes the crash artifact of a worker that died on a seed.
        static func recordCrash(_ crash: WorkerPool.Crash, runner: SweepRunner, directory: String, build: BuildFingerprint) -> SweepFailure {
            let request = runner.request(seed: crash.seed)
            let cause = crash.signal.map { "signal \($0)" } ?? "exit status \(crash.status)"
            let lastError = crash.standardError.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("failed:") }.map(String.init)
            let message = "worker died with \(cause) on seed \(crash.seed)\(lastError.map { ": \($0)" } ?? "")"
            let artifact = FailureArtifact(
                kind: "crash", scenario: request.scenario, seed: crash.seed, strategy: request.strategy.description, variant: request.variant,
                parameters: (try? ScenarioRunner.prepare(request).1.values) ?? request.parameters, swarm: request.swarm, decisions: [],
                violation: nil, message: message, signal: crash.signal ?? 0, build: build, story: [message],
                timingWindowNanoseconds: request.effectiveTimingWindowNanoseconds)
            let path = "\(directory)/\(artifact.fileName)"
            let written = (try? artifact.write(to: path)) != nil
            return SweepFailure(seed: crash.seed, kind: "crash", check: nil, step: nil, message: message, artifact: written ? path : nil)
        }

        static func printShrunk(_ artifact: FailureArtifact, path: String) {
            if let shrink = artifact.shrink {
                let changed = artifact.parameters.keys.sorted().filter { shrink.parametersBefore[$0] != artifact.parameters[$0] }
                    .map { "\($0) \(shrink.parametersBefore[$0]!)→\(artifact.parameters[$0]!)" }
                print("shrunk seed \(artifact.seed) in \(shrink.runs) runs: preemptions \(shrink.preemptionsBefore)→\(shrink.preemptionsAfter); fault kinds \(shrink.faultKindsBefore.count)→\(shrink.faultKindsAfter.count); parameters \(changed.isEmpty ? "unchanged" : changed.joined(separator: ", "))")
            }
            print("story:")
            for line in artifact.story { print("  \(line)") }
            print("  replay: rehearse replay \(path)")
        }
    }
}
