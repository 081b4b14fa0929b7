import Harness
import RehearsalTesting
import Sim
import Testing

/// A shop that fails for every number of shoppers but 1 and 5: the halving steps of a shrink (the
/// minimum, then halfway) both land on a passing value, so only single steps find the smaller
/// failing sizes.
struct HalvingTrapScenario: Scenario {
    let name = "halving-trap"
    let summary = "fails unless shoppers is 1 or 5"
    static let shoppers = ScenarioParameter("shoppers", "shoppers at once", default: 10, in: 1...10)
    static let served = CheckDeclaration(.always, "everyone-served", "every shopper is served")
    let parameters = [shoppers]
    let operations = ["shop"]
    let variants: [String] = []
    let checks = [served]
    let usesBackend = false

    func run(_ context: ScenarioContext) async throws {
        let shoppers = context.parameters[Self.shoppers]
        await Simulation.point()
        context.always(Self.served, shoppers == 1 || shoppers == 5, "\(shoppers) shoppers: one was not served")
        try context.throwIfStopped()
    }
}

@Suite struct ParameterShrinkTests {
    /// From 10, halving tries 1 and 5 (both pass) and would stop at 10; single steps go on to 6,
    /// the local minimum (5 passes), and the failure says it is one.
    @Test func parametersShrinkToALocalMinimumAndSaySo() throws {
        let failure = try #require(Rehearsal.expectFailure(HalvingTrapScenario(), seeds: 0..<1, world: .default, options: .randomOnly))
        #expect(failure.parameters["shoppers"] == 6, "\(failure.description)")
        #expect(failure.parameterShrink == "shoppers 10→6; local minimum: no single step of one parameter toward its minimum still fails", "\(failure.description)")
        #expect(failure.description.contains("parameters: shoppers 10→6; local minimum"))
        let artifact = try #require(failure.artifact)
        let recorded = try #require(try FailureArtifact.decode(try InputFile.read(artifact), path: artifact))
        #expect(recorded.shrink?.parametersLocalMinimum == true)
    }

    /// A shrink whose budget runs out before the descent ends says it is not a local minimum.
    @Test func aShrinkOutOfBudgetIsNotALocalMinimum() throws {
        let options = SweepOptions(strategies: [.random], maxShrinkRuns: 4)
        let failure = try #require(Rehearsal.expectFailure(HalvingTrapScenario(), seeds: 0..<1, world: .default, options: options))
        #expect(failure.parameterShrink?.hasSuffix("not a local minimum: the shrink's budget ran out first") == true, "\(failure.description)")
        #expect((failure.parameters["shoppers"] ?? 0) > 6)
    }
}
