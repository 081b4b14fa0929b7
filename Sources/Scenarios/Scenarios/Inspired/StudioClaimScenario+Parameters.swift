import FirebaseHarness
import Harness
import SimulatedFirebase

extension StudioClaimScenario {
    /// The parameter counting this scenario's users (would-be owners: studios × claimants).
    public var population: ScenarioParameter? { Parameter.studios }

    /// The parameters this scenario reads, as values: `context.parameters[Parameter.studios]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    enum Parameter {
        static let studios = ScenarioParameter(
            "studios", "places in the simulated Google Places catalogue (a third open at the start)", default: 8, in: 1...200, cost: .linear)
        static let claimantsPerStudio = ScenarioParameter(
            "claimantsPerStudio", "would-be owners claiming each studio (co-owners, staff)", default: 3, in: 1...10, cost: .linear)
        static let claimSpreadMilliseconds = ScenarioParameter(
            "claimSpreadMilliseconds", "a studio's claimants claim within this window of each other", default: 40, in: 0...600_000)
        static let impostorPercent = ScenarioParameter(
            "impostorPercent", "chance a claimant sends a wrong verification code", default: 20, in: 0...100)
        static let editsPerOwner = ScenarioParameter(
            "editsPerOwner", "edits of the studio's about text by the owner after claiming", default: 3, in: 0...20, cost: .linear)
        static let seedIntervalMinutes = ScenarioParameter(
            "seedIntervalMinutes", "period of the seedShadowStudios scheduled function", default: 30, in: 1...720, notable: [30, 60])
        static let hours = ScenarioParameter(
            "hours", "virtual hours the run lasts (places keep opening over the first half)", default: 3, in: 1...72, cost: .linear)
    }
}
