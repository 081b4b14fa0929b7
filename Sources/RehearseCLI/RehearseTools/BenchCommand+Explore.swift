import Foundation
import KernelWorkloads
import Sim

extension BenchCommand {
    /// Bounded exhaustive exploration on the ported programs: schedules judged by preemptions
    /// against the naive interleaving count, runs, time, and the bound where each known bug fell.
    func runExplore() -> [String] {
        let bound = 3
        print("== explore: every schedule with ≤ \(bound) preemptions of each ported program (stops at the first failure), one thread")
        print("program            | naive interleavings | schedules by preemptions 0/1/2/3 | runs    | time      | result")
        var missed: [String] = []
        for program in ExploreProgram.all {
            let start = ContinuousClock.now
            let result = Simulation.explore(
                SimulationConfiguration(seed: 0), preemptionBound: bound, maxSchedules: Self.exploreLimit,
                fails: { !$0.outcome.isSuccess || $0.output == true }
            ) { await program.run() }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let outcome: String
            switch result.ending {
            case .failed: outcome = "bug at \(result.failure?.preemptions ?? -1) preemption(s) (schedule \(result.schedules))"
            case .complete: outcome = "all \(result.schedules) passed"
            case .stoppedAtLimit: outcome = "stopped at \(result.schedules.formatted()) schedules (≤ \(result.completeBound) complete)"
            case .nondeterministic(let message): outcome = "nondeterministic: \(message)"
            }
            let counts = result.schedulesByPreemptions.map(String.init).joined(separator: " / ")
            let cells = [
                Self.pad(program.name, 18), Self.pad(Self.interleavings(program.naiveInterleavings), 19, right: true), Self.pad(counts, 32),
                Self.pad(result.runs.formatted(), 7, right: true), String(format: "%7.3f s", seconds), outcome,
            ]
            print(cells.joined(separator: " | "))
            let expected = program.bugPreemptions
            let found = result.ending == .failed ? result.failure?.preemptions : nil
            if expected != found && result.ending != .stoppedAtLimit { missed.append("explore \(program.name): expected \(expected.map(String.init) ?? "no bug"), found \(found.map(String.init) ?? "none")") }
        }
        print("every known bug found at its minimal bound: \(missed.isEmpty ? "met" : "MISSED")")
        return missed
    }

    /// The schedules one program may take in the table (the growth row reaches it).
    static let exploreLimit = 200_000

    /// `text` padded with spaces to `width`.
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }

    /// A count such as 705,432 or 4.0e+08.
    static func interleavings(_ count: Double) -> String {
        count < 1e7 ? Int(count).formatted() : String(format: "%.1e", count)
    }
}
