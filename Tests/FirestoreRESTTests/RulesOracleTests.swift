import FirestoreREST
import RehearsalTestSupport
import RulesConformance
import SimulatedFirebase
import Testing

/// The rules differential against the emulator: every app's Swift rules decide random requests as
/// the emulator loaded with the app's rules file does, and a rules file that drifts from the Swift
/// rules is caught.
@Suite struct RulesOracleTests {
    /// An oracle on the shared emulator; tests that load different rules files run at once, so each
    /// has its own project prefix (a program's project is `<prefix>-<app>-<seed>`).
    func oracle(_ prefix: String = "demo-rules-test") async throws -> RulesOracle {
        let emulator = try await SharedEmulator.shared.emulator()
        return RulesOracle(client: FirestoreRESTClient(baseURL: emulator.baseURL, project: prefix), projectPrefix: prefix)
    }

    @Test(.needsFirestoreEmulator, .tags(.subprocess), arguments: RulesWorld.all.map(\.app))
    func everyAppsRulesFileDecidesAsItsSwiftRules(app: String) async throws {
        let world = try #require(RulesWorld.all.first { $0.app == app })
        let oracle = try await oracle()
        var table = RulesTable()
        for program in RulesRun(worlds: [world], requests: 300, firstSeed: 900).programs {
            table.add(try await oracle.check(program.world, seed: program.seed, requests: program.requests))
        }
        #expect(table.undocumented.isEmpty, "\(table.undocumented.prefix(2).map(\.description).joined(separator: "\n"))")
        let rows = table.rows[app] ?? [:]
        #expect(rows.values.contains { $0.allowed > 0 } && rows.values.contains { $0.denied > 0 }, "\(table.text)")
    }

    /// KNB's world with `original` in its rules file replaced, and the first mismatch the oracle
    /// finds in programs of seeds 0..<`seeds` (the test fails when none is found).
    func firstMismatch(replacing original: String, with drifted: String, prefix: String, seeds: UInt64) async throws -> (RulesWorld, RulesMismatch) {
        var world = RulesWorld.knb
        #expect(world.rulesText.contains(original))
        world.rulesText = world.rulesText.replacingOccurrences(of: original, with: drifted)
        let oracle = try await oracle(prefix)
        var found: RulesMismatch?
        for seed in UInt64(0)..<seeds where found == nil {
            found = try await oracle.check(world, seed: seed, requests: RulesRun.requestsPerProgram).mismatch
        }
        return (world, try #require(found))
    }

    /// The first bid on an honor: without its guard, KNB's rules file compares `afterBids[0:0]`, an
    /// evaluation error on the emulator, and so denies what the Swift rules allow. Only an app's append (one
    /// more array element, a raised number) reaches that comparison; the generator draws them.
    @Test(.needsFirestoreEmulator, .tags(.subprocess)) func anEmptyListSliceInTheRulesFileIsCaught() async throws {
        let guarded = "(beforeBids.size() == 0 || afterBids[0:beforeBids.size()] == beforeBids)"
        let (_, mismatch) = try await firstMismatch(replacing: guarded, with: "afterBids[0:beforeBids.size()] == beforeBids", prefix: "demo-rules-slice", seeds: 100)
        #expect(mismatch.request.operation == .update && mismatch.request.collection == "honors")
        #expect(mismatch.simulated == .allowed && mismatch.real == .denied)
    }

    @Test(.needsFirestoreEmulator, .tags(.subprocess)) func aRulesFileThatDriftsFromTheSwiftRulesIsCaught() async throws {
        let strict = "allow create: if hasEmail() && request.resource.data.get('reservedBy', null) == request.auth.token.email;"
        let (world, mismatch) = try await firstMismatch(replacing: strict, with: "allow create: if signedIn();", prefix: "demo-rules-drift", seeds: 40)
        let oracle = try await oracle("demo-rules-drift")
        #expect(mismatch.known == nil)
        #expect(mismatch.request.operation == .create && mismatch.request.collection == "seat_reservations")
        #expect(mismatch.simulated == .denied && mismatch.real == .allowed)
        #expect(mismatch.description.contains("replay: rehearse conformance --programs 0 --apps knb --rules-first-seed \(mismatch.seed) --rules-requests \(mismatch.index + 1)"))
        // The replay the line prints meets the same request at the same place.
        let replay = try #require(try await oracle.check(world, seed: mismatch.seed, requests: mismatch.index + 1).mismatch)
        #expect(replay.index == mismatch.index && replay.request.description == mismatch.request.description)
    }

    @Test func requestsAreSplitIntoProgramsOfConsecutiveSeeds() {
        let first = RulesRun(worlds: RulesWorld.all, requests: 60, firstSeed: 7).programs.map { "\($0.world.app) \($0.seed) \($0.requests)" }
        #expect(first.count == RulesWorld.all.count * 3)
        #expect(first.prefix(3) == ["knb 7 25", "knb 8 25", "knb 9 10"])
    }
}
