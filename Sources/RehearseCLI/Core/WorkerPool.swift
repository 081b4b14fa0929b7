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

    /// What the lanes share: whether to stop, and the workers running (so a stop ends all of
    /// them at once instead of letting each finish its current seed).
    private struct Shared {
        var stopped = false
        var running: [Int: Process] = [:]
        var setupError: String?
    }

    /// Runs the pending seeds; calls `onResult`/`onCrash` (serialised) as they come, never
    /// after the pool stopped (a failure without --keep-going, or a callback returning false),
    /// so the caller records exactly the seeds that ran to the end before the stop. Throws bad
    /// input when a worker fails before any seed starts.
    func run(onResult: @escaping @Sendable (SweepSeedResult) -> Bool, onCrash: @escaping @Sendable (Crash) -> Bool) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let shared = Mutex(Shared())
        let tasks = pending.flatMap { range in (0..<max(1, min(jobs, range.count))).map { (range, $0, max(1, min(jobs, range.count))) } }
        // Lanes of one range stride through it; ranges run one after the other per lane slot.
        let lanes = max(1, min(jobs, tasks.count))
        let queue = Mutex(tasks)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            while let (range, offset, stride) = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                var next = range.low + UInt64(offset)
                while next < range.high, !shared.withLock({ $0.stopped }) {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: executable)
                    process.arguments = ["fuzz-worker"] + workerArguments + ["--seeds", "\(next)..<\(range.high)", "--stride", "\(stride)"]
                    let output = Pipe(), errors = Pipe()
                    process.standardOutput = output
                    process.standardError = errors
                    let started: Bool = shared.withLock { state in
                        guard !state.stopped else { return false }
                        do { try process.run() } catch {
                            state.setupError = "cannot start worker: \(error)"
                            state.stopped = true
                            return false
                        }
                        state.running[lane] = process
                        return true
                    }
                    guard started else { return }
                    var current: UInt64?
                    // Lines are split where they end, scanning only bytes not scanned yet, and the
                    // consumed prefix is dropped once it is most of the buffer: a 100 KB result
                    // line arriving in 64 KB chunks must not be rescanned or shifted per chunk.
                    var buffer: [UInt8] = []
                    var consumed = 0, scanned = 0
                    let decoder = JSONDecoder()
                    let handle = output.fileHandleForReading
                    reading: while true {
                        let chunk = handle.availableData
                        if chunk.isEmpty { break }
                        buffer.append(contentsOf: chunk)
                        while let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                            let line = buffer[consumed..<newline]
                            consumed = newline + 1
                            scanned = consumed
                            if line.starts(with: Self.startPrefix), let seed = UInt64(String(decoding: line.dropFirst(Self.startPrefix.count), as: UTF8.self)) {
                                current = seed
                            } else if line.starts(with: Self.resultPrefix),
                                      let result = try? decoder.decode(SweepSeedResult.self, from: Data(line.dropFirst(Self.resultPrefix.count))) {
                                current = nil
                                let (following, overflow) = result.seed.addingReportingOverflow(UInt64(stride))
                                next = overflow ? range.high : following
                                let keepGoing: Bool = shared.withLock { state in
                                    guard !state.stopped else { return false }
                                    return onResult(result)
                                }
                                if !keepGoing || (stopAtFirstFailure && !result.passed) { Self.stopAll(shared); break reading }
                            }
                        }
                        scanned = buffer.count
                        if consumed > 0 && consumed * 2 >= buffer.count {
                            buffer.removeFirst(consumed)
                            scanned -= consumed
                            consumed = 0
                        }
                    }
                    if shared.withLock({ $0.stopped }) { kill(process.processIdentifier, SIGKILL) }
                    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    shared.withLock { _ = $0.running.removeValue(forKey: lane) }
                    if shared.withLock({ $0.stopped }) { return }
                    let status = process.terminationStatus
                    let signaled = process.terminationReason == .uncaughtSignal
                    let standardError = String(decoding: errorData, as: UTF8.self)
                    if let seed = current {
                        let crash = Crash(seed: seed, signal: signaled ? status : nil, status: status, standardError: standardError)
                        let keepGoing: Bool = shared.withLock { state in state.stopped ? false : onCrash(crash) }
                        if !keepGoing || stopAtFirstFailure { Self.stopAll(shared); return }
                        let (following, overflow) = seed.addingReportingOverflow(UInt64(stride))
                        next = overflow ? range.high : following
                    } else if status != 0 || signaled {
                        let message = standardError.split(separator: "\n").last.map { String($0).replacingOccurrences(of: "error: ", with: "") } ?? "worker exited \(status)"
                        shared.withLock { if $0.setupError == nil { $0.setupError = message } }
                        Self.stopAll(shared)
                        return
                    } else {
                        break  // finished its seeds of this range
                    }
                }
            }
        }
        if let message = shared.withLock({ $0.setupError }) { throw InputError.fail(message) }
    }

    private static let startPrefix = Array("start ".utf8)
    private static let resultPrefix = Array("result ".utf8)

    /// Stops the pool: no new worker starts and every running one is terminated.
    private static func stopAll(_ shared: borrowing Mutex<Shared>) {
        shared.withLock { state in
            state.stopped = true
            // SIGKILL by pid, not Process.terminate (whose isRunning check was seen to skip a
            // live worker that then blocked forever writing to a pipe nobody read).
            for process in state.running.values { kill(process.processIdentifier, SIGKILL) }
        }
    }
}
