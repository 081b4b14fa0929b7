import Domain
@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// A backend kinder than production must not pass a sweep of the careful design: its fault
/// ledger shows faults drawn but never delivered, and the sweep fails saying so.
@Suite struct KinderBackendTests {
    init() { BuiltInScenarios.register() }

    static func sweep(_ scenario: String, defects: Set<BackendDefect>, seeds: SeedRange = SeedRange(low: 1, high: 16)) throws -> SweepResult {
        var template = RunRequest(scenario: scenario, seed: seeds.low, strategy: .portfolio)
        template.backendDefects = defects
        let runner = try SweepRunner(template: template, swarm: false, determinismEvery: 0, failureDirectory: nil)
        var result = try runner.emptyResult(range: seeds, shard: nil, build: BuildFingerprint(commit: "test"))
        for seed in seeds.seeds { result.add(try runner.run(seed: seed).result) }
        return result
    }

    @Test func theCarefulBackendDeliversTheFaultsItDraws() throws {
        let result = try Self.sweep("like-storm", defects: [])
        #expect(result.passed, "\(result.coverageSummary)")
        let duplicates = try #require(result.faults?.first { $0.kind == FaultKindName(.triggerDuplicate) })
        let reorders = try #require(result.faults?.first { $0.kind == FaultKindName(.triggerReorder) })
        #expect(duplicates.expected >= 20 && duplicates.observed > 0, "\(duplicates.summary)")
        #expect(reorders.expected >= 10 && reorders.observed > 0, "\(reorders.summary)")
        #expect(result.suppressedFaults.isEmpty)
    }

    @Test(arguments: [(BackendDefect.duplicatesNeverDelivered, FaultKind.triggerDuplicate), (.reorderWindowUnitSlip, .triggerReorder)])
    func aKinderBackendFailsTheSweep(defect: BackendDefect, kind: FaultKind) throws {
        let result = try Self.sweep("like-storm", defects: [defect])
        #expect(result.failures.isEmpty, "the careful design's checks stay green on a kinder backend: only the ledger can tell")
        #expect(!result.passed)
        #expect(result.suppressedFaults.map(\.kind) == [FaultKindName(kind)], "\(result.coverageSummary)")
        #expect(result.coverageSummary.contains("kinder than it claims"))
    }
}
