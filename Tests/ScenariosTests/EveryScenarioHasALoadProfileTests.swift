@testable import Harness
@testable import Scenarios
import Testing

/// Every built-in scenario has a load profile (`rehearse load <scenario>` never answers "has no
/// load profile"), named for its scenario, and each profile's virtual load runs briefly to the end.
@Suite struct EveryScenarioHasALoadProfileTests {
    init() { BuiltInScenarios.register() }

    @Test func everyBuiltInScenarioHasALoadProfile() {
        let missing = BuiltInScenarios.all.filter { $0.loadProfile == nil }.map { $0.name }
        #expect(missing.isEmpty, "scenarios without a load profile: \(missing.joined(separator: ", "))")
        for scenario in BuiltInScenarios.all {
            guard let profile = scenario.loadProfile else { continue }
            #expect(profile.scenario == scenario.name, "\(scenario.name)'s profile is named \(profile.scenario)")
            #expect(!profile.operations.isEmpty, "\(scenario.name)'s profile records no operation")
            #expect(profile.users > 0, "\(scenario.name)'s profile has no users")
        }
        // `rehearse load` finds each one (other suites may register scenarios of their own).
        #expect(Set(BuiltInScenarios.all.map { $0.name }).isSubset(of: LoadRunner.profiledScenarios))
    }

    @Test(arguments: BuiltInScenarios.all.map { $0.name })
    func profileRunsBrieflyInVirtualTime(scenario: String) throws {
        let request = LoadRequest(
            scenario: scenario, executor: .constantArrivalRate(rate: 5, duration: .seconds(1)), clock: .virtual, seed: 7, commandLine: "test")
        let report = LoadRunner.runVirtual(request)
        #expect(report.failure?.kind != .kernel, "\(scenario): the simulation ended \(report.failure?.message ?? "")")
        #expect(report.passed, "\(scenario): \(report.failure?.message ?? "")")
        let load = try #require(report.load)
        #expect(load.iterationsCompleted > 0, "\(scenario): no iteration finished")
        #expect(load.abandoned == 0, "\(scenario): \(load.abandoned) iterations abandoned")
        let profile = try #require(LoadProfile.named(scenario))
        #expect(report.latency.allSatisfy { profile.operations.contains($0.operation) }, "\(scenario) recorded an operation its profile does not list")
    }
}
