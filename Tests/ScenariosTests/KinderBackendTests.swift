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
        #expect(result.offFaults.isEmpty)
    }

    @Test(arguments: [(BackendDefect.duplicatesNeverDelivered, FaultKind.triggerDuplicate), (.reorderWindowUnitSlip, .triggerReorder)])
    func aKinderBackendFailsTheSweep(defect: BackendDefect, kind: FaultKind) throws {
        let result = try Self.sweep("like-storm", defects: [defect])
        #expect(result.failures.isEmpty, "the careful design's checks stay green on a kinder backend: only the ledger can tell")
        #expect(!result.passed)
        #expect(result.offFaults.map(\.kind) == [FaultKindName(kind)], "\(result.coverageSummary)")
        #expect(result.offFaults.map(\.verdict) == [.fewer])
        #expect(result.coverageSummary.contains("drawn but not delivered"))
    }
}

/// Server transactions that lock what they read (MODEL_RULES §23) are what exposes
/// `broadcast-lease-plain-write`: the fan-out's lease written beside its own transaction. On a
/// backend whose server transactions are optimistic (the simulator's earlier model, and a database
/// setting) the variant passes every seed; with locks, as Firestore runs by default, every seed
/// with an announcement fails.
@Suite struct TransactionLockScenarioTests {
    init() { BuiltInScenarios.register() }

    static func sweep(defects: Set<BackendDefect>) throws -> SweepResult {
        var template = RunRequest(scenario: "admin-broadcast", seed: 1, strategy: .random, variant: "broadcast-lease-plain-write")
        template.backendDefects = defects
        let seeds = SeedRange(low: 1, high: 5)
        let runner = try SweepRunner(template: template, swarm: false, determinismEvery: 0, failureDirectory: nil)
        var result = try runner.emptyResult(range: seeds, shard: nil, build: BuildFingerprint(commit: "test"))
        for seed in seeds.seeds { result.add(try runner.run(seed: seed).result) }
        return result
    }

    @Test func onlyLockingServerTransactionsExposeAWriteBesideTheTransaction() throws {
        let optimistic = try Self.sweep(defects: [.optimisticServerTransactions])
        #expect(optimistic.failures.isEmpty, "\(optimistic.failures.prefix(2).map(\.message))")
        let pessimistic = try Self.sweep(defects: [])
        #expect(pessimistic.failures.count == 4, "\(pessimistic.failures.count) of 4 seeds failed")
        #expect(pessimistic.failures.allSatisfy { $0.message.contains("announcement") })
        let expired = try #require(pessimistic.faults?.first { $0.kind == FaultKindName(.transactionExpired) })
        #expect(expired.observed >= 4, "each announcement's claim waits for its own lock until it expires")
    }
}
