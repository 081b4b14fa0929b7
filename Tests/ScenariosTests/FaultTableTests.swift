import FirebaseHarness
import Foundation
import Harness
import SimulatedFirebase
import Testing

/// The one fault table (`FaultTable`): worlds, swarms, `--fault` and the docs derive from it, so
/// the vocabularies cannot drift apart again.
@Suite struct FaultTableTests {
    /// Each dial is named as the kind it draws, once; its default is `BackendFaults.default`'s
    /// (every field of it but the latency tails, whose models keep their own defaults), below its ceiling.
    @Test func eachDialIsDeclaredOnceWithTheBackendsDefault() {
        let names = FaultTable.dials.map(\.name)
        #expect(Set(names).count == names.count)
        for dial in FaultTable.dials {
            #expect(dial.kind.map { $0.rawValue == dial.name } ?? ["latency-tails", "email-quota-shared"].contains(dial.name), "\(dial.name)")
            #expect(dial.defaultRate <= dial.ceiling && dial.ceiling <= 1, "\(dial.name)")
            if dial.name != "latency-tails" { #expect(dial.fields.allSatisfy { BackendFaults.default[keyPath: $0] == dial.defaultRate }) }
            #expect(dial.kind?.dial?.name == dial.kind.map { _ in dial.name }, "FaultKind.dial finds \(dial.name)")
        }
    }

    /// What a world draws is the table, in its order, with its defaults and ceilings.
    @Test func worldKnobsAreTheTable() {
        #expect(FirebaseWorld.faultKnobs.map(\.name) == FaultTable.dials.map(\.name))
        #expect(FirebaseWorld.faultKnobs.map(\.defaultRate) == FaultTable.dials.map(\.defaultRate))
        #expect(FirebaseWorld.faultKnobs.map(\.ceiling) == FaultTable.dials.map(\.ceiling))
        var faults = BackendFaults.none
        FirebaseWorld.set("latency-tails", 0.25, &faults)
        #expect([faults.networkLatency, faults.listenerLatency, faults.triggerDelay, faults.fcmDelivery, faults.emailLatency,
                 faults.storageUploadLatency, faults.adminOperationLatency, faults.fcmCallLatency].allSatisfy { $0.tailProbability == 0.25 })
    }

    /// A swarm sets exactly the dials of its groups (the same fields a world's dial sets), each group
    /// turning at least one; the others keep the base rates.
    @Test func aSwarmTurnsTheTablesDials() {
        for group in FaultDial.SwarmGroup.allCases { #expect(FaultTable.dials.contains { $0.swarm?.group == group }, "\(group)") }
        let all = SwarmConfiguration(rates: Dictionary(uniqueKeysWithValues: FirebaseSwarm.Kind.allCases.map { ($0, 0.07) })).apply(to: .default)
        for dial in FaultTable.dials {
            let expected = dial.swarm.map { 0.07 * $0.share } ?? dial.defaultRate
            #expect(dial.fields.allSatisfy { all[keyPath: $0] == expected || (dial.swarm == nil && dial.name == "latency-tails") }, "\(dial.name)")
        }
        #expect(all.storageUploadLatency.tailProbability == 0.07 && all.fcmCallLatency.tailProbability == 0.07, "the swarm's tails reach every latency model")
    }

    /// docs/scenarios.md lists every dial with its default and ceiling as the table has them.
    @Test func theDocsListTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n  ", with: " ")
        func percent(_ rate: Double) -> String {
            let value = (rate * 10_000).rounded() / 100
            return value == value.rounded() ? "\(Int(value)) %" : "\(value) %"
        }
        for dial in FaultTable.dials {
            #expect(text.contains("\(dial.name) \(percent(dial.defaultRate)) / \(percent(dial.ceiling))"), "\(dial.name)")
        }
    }
}
