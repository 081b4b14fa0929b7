import Harness
import Sim
import Synchronization

/// A sweep's result as seeds finish, written to its file progressively (every
/// `Rehearse.FuzzCommand.checkpointSeeds` seeds or `checkpointInterval` of wall time, atomically), so a
/// killed sweep leaves a result listing exactly the seeds that ran, which `--resume` continues.
final class SweepRecorder: Sendable {
    private struct State {
        var result: SweepResult
        var sinceWrite = 0
        var lastWrite = ContinuousClock.now
        var writeError: String?
    }
    private let state: Mutex<State>
    let path: String

    init(_ initial: SweepResult, path: String) {
        self.state = Mutex(State(result: initial))
        self.path = path
    }

    var result: SweepResult { state.withLock { $0.result } }

    /// Adds one seed's result; writes the file when a checkpoint is due.
    func add(_ seedResult: SweepSeedResult) {
        state.withLock { state in
            state.result.add(seedResult)
            state.sinceWrite += 1
            // The CLI may read the wall clock: it only paces writes, never a simulation.
            if state.sinceWrite >= Rehearse.FuzzCommand.checkpointSeeds || state.lastWrite.duration(to: .now) >= Rehearse.FuzzCommand.checkpointInterval {
                Self.write(&state, to: path)
            }
        }
    }

    /// The corpus of a guided sweep's block starting at `block` (made from its blind seeds now, if
    /// not made yet, and recorded).
    func corpus(block: UInt64) -> [World] {
        state.withLock { state in
            state.result.guide = state.result.guide ?? GuideRecord(origin: block)
            return state.result.guide!.corpus(block: block)
        }
    }

    /// Writes the file now (`force`) or reports a failed progressive write.
    func checkpoint(force: Bool = true) throws {
        let error: String? = state.withLock { state in
            if force { Self.write(&state, to: path) }
            return state.writeError
        }
        if let error { throw InputError.fail(error) }
    }

    private static func write(_ state: inout State, to path: String) {
        do {
            StaleTemporaryFiles.clean(beside: path)
            try AtomicFile.write(state.result.json(), to: path)
            state.writeError = nil
        } catch {
            state.writeError = error.description
        }
        state.sinceWrite = 0
        state.lastWrite = .now
    }
}
