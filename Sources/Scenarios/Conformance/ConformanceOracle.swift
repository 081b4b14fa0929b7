import FirestoreREST
import SimulatedFirebase
import Synchronization

/// The differential oracle: programs drawn from seeds run on the simulated Firebase and on a real
/// Firestore (the emulator), their normalised answers compared step by step; a mismatch is shrunk
/// to the fewest steps that still differ and classified against the documented divergences.
public struct ConformanceOracle: Sendable {
    /// The real server.
    let real: EmulatorSide
    /// A prefix for the per-program project ids.
    let projectPrefix: String

    /// An oracle against the server `client` speaks to.
    public init(client: FirestoreRESTClient, projectPrefix: String = "demo-oracle") {
        self.real = EmulatorSide(client: client)
        self.projectPrefix = projectPrefix
    }

    /// The outcome of one program: agreed per behaviour, or a (shrunk) mismatch.
    public struct Result: Sendable {
        /// The program run.
        public var program: ConformanceProgram
        /// Behaviours of the steps both answered alike (up to the first difference).
        public var agreed: [String]
        /// The shrunk mismatch, nil when the program agreed throughout.
        public var mismatch: ConformanceMismatch?
    }

    /// Runs the program of `seed` on both, comparing; shrinks a mismatch.
    public func check(seed: UInt64) async throws(RESTError) -> Result {
        let program = ConformanceGenerator.program(seed: seed)
        guard let first = try await firstDifference(program) else {
            return Result(program: program, agreed: program.steps.flatMap(\.behaviours), mismatch: nil)
        }
        let agreed = program.steps.prefix(first.step).flatMap(\.behaviours)
        let shrunk = try await shrink(program, first)
        return Result(program: program, agreed: agreed, mismatch: shrunk)
    }

    /// Runs `program` on both; the first differing outcome, or nil.
    func firstDifference(_ program: ConformanceProgram) async throws(RESTError) -> ConformanceMismatch? {
        let simulated = await SimulatedSide.run(program)
        let real = try await self.real.run(program, project: projectId(program))
        guard let index = zip(simulated, real).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return nil }
        var mismatch = ConformanceMismatch(program: program, step: index, simulated: simulated[index], real: real[index], known: nil)
        mismatch.known = KnownDivergence.explaining(index < program.steps.count ? program.steps[index] : nil, mismatch.simulated, mismatch.real)
        return mismatch
    }

    /// Removes steps (one at a time, from the end) while the programs still differ; the setup
    /// commit's writes are tried one by one too.
    func shrink(_ program: ConformanceProgram, _ mismatch: ConformanceMismatch) async throws(RESTError) -> ConformanceMismatch {
        var best = mismatch
        var candidate = program
        candidate.steps = Array(program.steps.prefix(mismatch.step + 1))
        if let found = try await firstDifference(candidate) { best = found }
        var index = best.program.steps.count - 1
        while index >= 0 {
            var smaller = best.program
            smaller.steps.remove(at: index)
            if !smaller.steps.isEmpty, let found = try await firstDifference(smaller) { best = found }
            index = min(index - 1, best.program.steps.count - 1)
        }
        return try await shrinkWrites(best)
    }

    /// Drops single writes of multi-write commits while the programs still differ.
    func shrinkWrites(_ mismatch: ConformanceMismatch) async throws(RESTError) -> ConformanceMismatch {
        var best = mismatch
        for stepIndex in best.program.steps.indices {
            guard case .commit(let writes) = best.program.steps[stepIndex], writes.count > 1 else { continue }
            var kept = writes
            var writeIndex = kept.count - 1
            while writeIndex >= 0 && kept.count > 1 {
                var trial = kept
                trial.remove(at: writeIndex)
                var smaller = best.program
                smaller.steps[stepIndex] = .commit(trial)
                if let found = try await firstDifference(smaller) { best = found; kept = trial }
                writeIndex -= 1
            }
        }
        return best
    }

    /// A project id of its own for each run (the shrinker reruns variants of one seed).
    func projectId(_ program: ConformanceProgram) -> String {
        "\(projectPrefix)-\(program.seed)-\(Self.runs.wrappingAdd(1, ordering: .relaxed).newValue)"
    }

    /// Runs made by this process, for project ids.
    private static let runs = Atomic<UInt64>(0)
}
