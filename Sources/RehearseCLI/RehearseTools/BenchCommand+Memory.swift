import FirebaseHarness
import Foundation
import Harness
import RehearseCLI
import Scenarios
import Sim
import SimulatedFirebase

extension BenchCommand {
    /// Bytes per idle simulated SafeNSound user: registered (account actor, its executor, user
    /// document, store and due-index entries), doing nothing.
    func runMemory() -> [String] {
        print("== memory: \(memoryUsers) idle SafeNSound users registered in one simulation (actor store)")
        let count = memoryUsers
        var perUserBest = Double.infinity
        for _ in 0..<repetitions {
            let result = Simulation.run(SimulationConfiguration(seed: 1, strategy: .fifo)) {
                let timeline = HeartbeatWorkload(plan: HeartbeatWorkload.Plan(users: count), environment: SimulatedEnvironment.current())
                let allocatedBefore = MemoryProbe.allocatedBytes()
                let residentBefore = MemoryProbe.residentBytes()
                await timeline.register()  // table growth is included: it is part of what a user costs
                let allocatedAfter = MemoryProbe.allocatedBytes()
                let residentAfter = MemoryProbe.residentBytes()
                withExtendedLifetime(timeline) {}
                return (allocatedAfter - allocatedBefore, residentAfter - residentBefore)
            }
            guard let (allocated, resident) = result.output else { continue }
            let perUser = Double(allocated) / Double(count)
            perUserBest = min(perUserBest, perUser)
            print(String(format: "%@: %.0f bytes per idle user by %@ (%.1f MB for %d); RSS grew %.0f bytes per user",
                         MemoryProbe.allocatorName, perUser, MemoryProbe.allocatedMeasure, Double(allocated) / 1e6, count, Double(resident) / Double(count)))
        }
        let met = perUserBest <= 1024
        print(String(format: "target ≤ 1 KiB per idle simulated user: %.0f bytes: %@", perUserBest, met ? "met" : "MISSED"))
        return met ? [] : ["≤ 1 KiB per idle user"]
    }
}
