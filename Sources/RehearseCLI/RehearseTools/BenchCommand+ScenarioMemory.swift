import FirebaseHarness
import Foundation
import Harness
import RehearseCLI
import Scenarios
import SimulatedFirebase

extension BenchCommand {
    /// Memory per user of every scenario: one seed at the default population and at twice it (or
    /// half, at the top of the range), the run's peak measured each time (jemalloc's per-thread
    /// peak when jemalloc is loaded, else peak RSS), and the slope between them in bytes per user.
    /// Everything a run holds at its peak counts: user actors, documents, trigger queues, timers,
    /// latency samples, the report.
    func runScenarioMemory() throws -> [String] {
        print("== users-memory: peak bytes of one seed (random, no swarm) at two populations; \(MemoryProbe.peakMeasure)")
        print("scenario           | parameter | users a → b | peak a (MB) | peak b (MB) | bytes per added user")
        for scenario in ScenarioRegistry.all {
            guard let population = scenario.population else { continue }
            var (small, large) = (population.defaultValue, min(population.maximum, population.defaultValue * 2))
            if large == small { small = max(population.minimum, population.defaultValue / 2) }
            guard large > small else { continue }
            let peaks = try [small, large].map { users in try peak(scenario.name, population.name, users) }
            let perUser = Double(peaks[1] - peaks[0]) / Double(large - small)
            print(Self.padded(scenario.name, 18) + " | " + Self.padded(population.name, 9) + " | "
                  + String(format: "%5d → %-5d | %11.2f | %11.2f | %.0f", small, large, Double(peaks[0]) / 1e6, Double(peaks[1]) / 1e6, perUser))
            fflush(nil)
        }
        return []
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// The best (lowest) peak over `repetitions` runs of seed 1 with `parameter = users`.
    private func peak(_ scenario: String, _ parameter: String, _ users: Int) throws -> Int {
        var best = Int.max
        for _ in 0..<repetitions {
            MemoryProbe.resetPeak()
            _ = try ScenarioRunner.run(RunRequest(scenario: scenario, seed: 1, strategy: .random, parameters: [parameter: users]))
            best = min(best, MemoryProbe.peakBytes())
        }
        return best
    }
}
