import ChildProcess
import Foundation
import Testing

/// The test helper that starts every child process: outputs kept apart under concurrent spawns,
/// exit status and signal told apart, a time limit that kills.
@Suite struct ChildProcessTests {
    /// 4 threads × 25 children at once, each echoing its own number on both outputs: every child's
    /// outputs are its own and complete (a pipe inherited by a sibling would hold EOF back: a hang).
    /// A child whose EOF is held back is killed by its time limit and counts as a failure (its
    /// limit is far above the milliseconds a child takes, so only a hang reaches it).
    @Test func concurrentChildrenKeepTheirOutputsApart() {
        let results = ResultSlots(count: 100)
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for index in stride(from: lane, to: 100, by: 4) {
                let run = try? ChildProcess.run("/bin/sh", ["-c", "echo out\(index); echo err\(index) >&2; exit \(index % 7)"], timeLimit: 120)
                results.set(index, run.map { $0.output == "out\(index)\n" && $0.error == "err\(index)\n" && $0.status == Int32(index % 7) && $0.signal == nil && !$0.timedOut } ?? false)
            }
        }
        #expect(results.all.allSatisfy { $0 }, "\(results.all.enumerated().filter { !$0.element }.map(\.offset))")
    }

    @Test func aSignalIsReportedAsOneAndATimeLimitKills() throws {
        let signalled = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(signalled.signal == SIGTERM && !signalled.timedOut)
        let slow = try ChildProcess.run("/bin/sleep", ["600"], timeLimit: 2)
        #expect(slow.timedOut && slow.signal == SIGKILL)
        let merged = try ChildProcess.run("/bin/sh", ["-c", "echo a; echo b >&2"], directory: "/", mergeErrorIntoOutput: true)
        #expect(merged.output == "a\nb\n" && merged.error.isEmpty)
        let cwd = try ChildProcess.run("/bin/pwd", [], environment: ["ONLY": "1"], directory: "/tmp")
        #expect(cwd.output == "/tmp\n")
    }
}

/// Thread-safe result slots.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Bool]
    init(count: Int) { slots = Array(repeating: false, count: count) }
    func set(_ index: Int, _ value: Bool) { lock.withLock { slots[index] = value } }
    var all: [Bool] { lock.withLock { slots } }
}
