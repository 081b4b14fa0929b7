import Foundation
import Scenarios
import Synchronization

/// Runs a sweep's seeds in `rehearse fuzz-worker` child processes, so a crash in one seed never
/// kills the sweep (FoundationDB/TigerBeetle style): a worker reports `start <seed>` before and
/// `result <json>` after each seed; when it dies, the seed it was on is recorded as a crash and a
/// new worker continues after it.
struct WorkerPool {
    /// Arguments for `fuzz-worker` besides `--seeds` and `--stride`.
    var workerArguments: [String]
    var range: SeedRange
    var jobs: Int
    var stopAtFirstFailure: Bool

    /// A worker that died on `seed` with `signal` (or a non-zero exit status).
    struct Crash { var seed: UInt64; var signal: Int32?; var status: Int32; var standardError: String }

    /// Runs every seed; calls `onResult`/`onCrash` (serialised) as they come. Throws bad input
    /// when a worker fails before any seed starts.
    func run(onResult: @escaping @Sendable (SweepSeedResult) -> Bool, onCrash: @escaping @Sendable (Crash) -> Bool) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let stop = Atomic<Bool>(false)
        let lock = Mutex(())
        let setupError = Mutex<String?>(nil)
        let lanes = min(jobs, range.count)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var next = range.low + UInt64(lane)
            while next < range.high, !stop.load(ordering: .relaxed) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = ["fuzz-worker"] + workerArguments + ["--seeds", "\(next)..<\(range.high)", "--stride", "\(lanes)"]
                let output = Pipe(), errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                do { try process.run() } catch { setupError.withLock { $0 = "cannot start worker: \(error)" }; stop.store(true, ordering: .relaxed); return }
                var current: UInt64?
                var buffer = Data()
                let handle = output.fileHandleForReading
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...newline)
                        if line.hasPrefix("start "), let seed = UInt64(line.dropFirst(6)) {
                            current = seed
                        } else if line.hasPrefix("result "),
                                  let result = try? JSONDecoder().decode(SweepSeedResult.self, from: Data(line.dropFirst(7).utf8)) {
                            current = nil
                            next = result.seed + UInt64(lanes)
                            let keepGoing = lock.withLock { _ in onResult(result) }
                            if !keepGoing || (stopAtFirstFailure && !result.passed) { stop.store(true, ordering: .relaxed) }
                            if stop.load(ordering: .relaxed) { process.terminate() }
                        }
                    }
                }
                let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                if stop.load(ordering: .relaxed) { return }
                let status = process.terminationStatus
                let signaled = process.terminationReason == .uncaughtSignal
                if let seed = current {
                    let crash = Crash(seed: seed, signal: signaled ? status : nil, status: status, standardError: errorText)
                    let keepGoing = lock.withLock { _ in onCrash(crash) }
                    if !keepGoing || stopAtFirstFailure { stop.store(true, ordering: .relaxed); return }
                    next = seed + UInt64(lanes)
                } else if status != 0 || signaled {
                    setupError.withLock { $0 = errorText.split(separator: "\n").last.map { String($0).replacingOccurrences(of: "error: ", with: "") } ?? "worker exited \(status)" }
                    stop.store(true, ordering: .relaxed)
                    return
                } else {
                    return  // finished its seeds
                }
            }
        }
        if let message = setupError.withLock({ $0 }) { throw InputError.fail(message) }
    }
}
