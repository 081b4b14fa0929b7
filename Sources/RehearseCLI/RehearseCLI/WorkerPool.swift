import Foundation
import Harness
import Synchronization

/// Runs a sweep's seeds in `rehearse fuzz-worker` child processes, so a crash in one seed never
/// kills the sweep (FoundationDB/TigerBeetle style): a worker reports `start <seed>` before and
/// `result <json>` after each seed; when it dies, the seed it was on is recorded as a crash and a
/// new worker continues after it. Seeds already done (a resumed sweep) are skipped.
struct WorkerPool {
    /// Arguments for `fuzz-worker` besides `--seeds` and `--stride`.
    var workerArguments: [String]
    /// The seeds to run, as disjoint sorted ranges (a resume's gaps).
    var pending: [SeedRange]
    var jobs: Int
    var stopAtFirstFailure: Bool

    /// A worker that died on `seed` with `signal` (or a non-zero exit status).
    struct Crash { var seed: UInt64; var signal: Int32?; var status: Int32; var standardError: String }

    /// One lane's part of a range: the seeds `range.low + offset`, then every `stride`-th after it.
    struct Share {
        var range: SeedRange
        var offset: Int
        var stride: Int
    }

    /// Runs the pending seeds; calls `onResult`/`onCrash` (serialised) as they come, never
    /// after the pool stopped (a failure without --keep-going, or a callback returning false),
    /// so the caller records exactly the seeds that ran to the end before the stop. Throws bad
    /// input when a worker fails before any seed starts.
    func run(onResult: @escaping @Sendable (SweepSeedResult) -> Bool, onCrash: @escaping @Sendable (Crash) -> Bool) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let shared = Shared()
        let shares = self.shares()
        // Lanes of one range stride through it; ranges run one after the other per lane slot.
        let lanes = max(1, min(jobs, shares.count))
        let queue = Mutex(shares)
        DispatchQueue.concurrentPerform(iterations: lanes) { index in
            let lane = Lane(pool: self, index: index, executable: executable, shared: shared, onResult: onResult, onCrash: onCrash)
            while let share = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                guard lane.run(share) else { return }
            }
        }
        if let message = shared.setupError { throw InputError.fail(message) }
    }

    /// Each pending range cut into up to `jobs` shares that stride through it.
    func shares() -> [Share] {
        pending.flatMap { range in
            let stride = max(1, min(jobs, range.count))
            return (0..<stride).map { Share(range: range, offset: $0, stride: stride) }
        }
    }

    /// One lane of the pool: runs shares in workers, one at a time, and reports what they did.
    struct Lane {
        let pool: WorkerPool
        let index: Int
        let executable: String
        let shared: Shared
        let onResult: @Sendable (SweepSeedResult) -> Bool
        let onCrash: @Sendable (Crash) -> Bool

        /// A worker process with its output and the tail of its standard error.
        struct Worker {
            let process: Process
            let output: FileHandle
            let errors: StandardErrorTail
        }

        /// How a worker ended: the pool stopped, it crashed on a seed, or it finished its seeds.
        enum Ending {
            case stopped
            case crashed(seed: UInt64)
            case finished
        }

        /// Runs `share`'s seeds, starting a new worker after each crash; false when the pool stopped.
        func run(_ share: Share) -> Bool {
            var next = share.range.low + UInt64(share.offset)
            while next < share.range.high, !shared.isStopped {
                guard let worker = launch(from: next, share) else { return false }
                let current = readReports(worker.output, share: share, next: &next)
                switch settle(worker, current: current) {
                case .stopped:
                    return false
                case .crashed(let seed):
                    let (following, overflow) = seed.addingReportingOverflow(UInt64(share.stride))
                    next = overflow ? share.range.high : following
                case .finished:
                    return true
                }
            }
            return true
        }

        /// Starts a worker on `share`'s seeds from `first`, registered as this lane's; nil when the
        /// pool stopped or the worker could not start.
        func launch(from first: UInt64, _ share: Share) -> Worker? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["fuzz-worker"] + pool.workerArguments + ["--seeds", "\(first)..<\(share.range.high)", "--stride", "\(share.stride)"]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            guard shared.start(process, lane: index) else { return nil }
            return Worker(process: process, output: output.fileHandleForReading, errors: StandardErrorTail(reading: errors.fileHandleForReading))
        }

        /// Reads the worker's reports to the end of its output (or the pool's stop), passing each
        /// result on and moving `next` past it; returns the seed the worker was on (nil: none).
        func readReports(_ output: FileHandle, share: Share, next: inout UInt64) -> UInt64? {
            var current: UInt64?
            var lines = LineSplitter()
            let decoder = JSONDecoder()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                let reading = lines.append(chunk) { line in
                    if line.starts(with: WorkerPool.startPrefix), let seed = UInt64(String(decoding: line.dropFirst(WorkerPool.startPrefix.count), as: UTF8.self)) {
                        current = seed
                    } else if line.starts(with: WorkerPool.resultPrefix),
                              let result = try? decoder.decode(SweepSeedResult.self, from: Data(line.dropFirst(WorkerPool.resultPrefix.count))) {
                        current = nil
                        let (following, overflow) = result.seed.addingReportingOverflow(UInt64(share.stride))
                        next = overflow ? share.range.high : following
                        let keepGoing = shared.deliver { onResult(result) }
                        if !keepGoing || (pool.stopAtFirstFailure && !result.passed) { shared.stopAll(); return false }
                    }
                    return true
                }
                if !reading { break }
            }
            return current
        }

        /// Waits for the worker to exit (killed first if the pool stopped) and records what its
        /// exit means: a crash on `current`, a failure to set up, or the end of its seeds.
        func settle(_ worker: Worker, current: UInt64?) -> Ending {
            let process = worker.process
            if shared.isStopped { kill(process.processIdentifier, SIGKILL) }
            let standardError = worker.errors.text()
            process.waitUntilExit()
            shared.finish(lane: index)
            if shared.isStopped { return .stopped }
            let status = process.terminationStatus
            let signaled = process.terminationReason == .uncaughtSignal
            if let seed = current {
                let crash = Crash(seed: seed, signal: signaled ? status : nil, status: status, standardError: standardError)
                let keepGoing = shared.deliver { onCrash(crash) }
                if !keepGoing || pool.stopAtFirstFailure { shared.stopAll(); return .stopped }
                return .crashed(seed: seed)
            } else if status != 0 || signaled {
                let message = standardError.split(separator: "\n").last.map { String($0).replacingOccurrences(of: "error: ", with: "") } ?? "worker exited \(status)"
                shared.failSetup(message)
                shared.stopAll()
                return .stopped
            } else {
                return .finished
            }
        }
    }

    private static let startPrefix = Array("start ".utf8)
    private static let resultPrefix = Array("result ".utf8)

    /// What the lanes share: whether to stop, why setup failed, and the workers running (so a
    /// stop ends all of them at once instead of letting each finish its current seed).
    final class Shared: Sendable {
        private struct State {
            var stopped = false
            var running: [Int: Process] = [:]
            var setupError: String?
        }
        private let state = Mutex(State())

        /// Whether the pool stopped.
        var isStopped: Bool { state.withLock { $0.stopped } }

        /// The first reason the pool could not run, if any.
        var setupError: String? { state.withLock { $0.setupError } }

        /// Starts `process` as `lane`'s worker unless the pool stopped; a worker that cannot start stops the pool.
        func start(_ process: Process, lane: Int) -> Bool {
            state.withLock { state in
                guard !state.stopped else { return false }
                do { try process.run() } catch {
                    state.setupError = "cannot start worker: \(error)"
                    state.stopped = true
                    return false
                }
                state.running[lane] = process
                return true
            }
        }

        /// Forgets `lane`'s worker, which exited.
        func finish(lane: Int) {
            state.withLock { _ = $0.running.removeValue(forKey: lane) }
        }

        /// Calls `callback` (serialised with every other) unless the pool stopped; false when stopped.
        func deliver(_ callback: () -> Bool) -> Bool {
            state.withLock { state in state.stopped ? false : callback() }
        }

        /// Records why the pool could not run, unless a reason is already recorded.
        func failSetup(_ message: String) {
            state.withLock { if $0.setupError == nil { $0.setupError = message } }
        }

        /// Stops the pool: no new worker starts and every running one is terminated.
        func stopAll() {
            state.withLock { state in
                state.stopped = true
                // SIGKILL by pid, not Process.terminate (whose isRunning check was seen to skip a
                // live worker that then blocked forever writing to a pipe nobody read).
                for process in state.running.values { kill(process.processIdentifier, SIGKILL) }
            }
        }
    }

    /// Splits a worker's output into lines where they end, scanning only bytes not scanned yet, and
    /// drops the consumed prefix once it is most of the buffer: a 100 KB result line arriving in
    /// 64 KB chunks must not be rescanned or shifted per chunk.
    struct LineSplitter {
        private var buffer: [UInt8] = []
        private var consumed = 0, scanned = 0

        /// Appends `chunk` and passes each line it completes (without its newline) to `body`;
        /// stops and returns false when `body` does.
        mutating func append(_ chunk: Data, _ body: (ArraySlice<UInt8>) -> Bool) -> Bool {
            buffer.append(contentsOf: chunk)
            while let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[consumed..<newline]
                consumed = newline + 1
                scanned = consumed
                if !body(line) { return false }
            }
            scanned = buffer.count
            if consumed > 0 && consumed * 2 >= buffer.count {
                buffer.removeFirst(consumed)
                scanned -= consumed
                consumed = 0
            }
            return true
        }
    }

    /// A worker's standard error, read on a thread of its own as it is written (a worker that
    /// writes more than a pipe holds must not block), keeping the last `limit` bytes.
    final class StandardErrorTail: Sendable {
        /// Bytes kept: the end of what the worker wrote, where its last error is.
        static let limit = 64 * 1024
        private let bytes = Mutex<[UInt8]>([])
        private let done = DispatchSemaphore(value: 0)

        /// Starts reading `handle` to its end.
        init(reading handle: FileHandle) {
            Thread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.withLock { bytes in
                        bytes.append(contentsOf: chunk)
                        if bytes.count > 2 * Self.limit { bytes.removeFirst(bytes.count - Self.limit) }
                    }
                }
                done.signal()
            }.start()
        }

        /// Waits for the end of the stream and returns its last `limit` bytes as text.
        func text() -> String {
            done.wait()
            return bytes.withLock { String(decoding: $0.suffix(Self.limit), as: UTF8.self) }
        }
    }
}
