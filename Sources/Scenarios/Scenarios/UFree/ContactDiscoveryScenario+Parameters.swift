import FirebaseHarness
import Harness
import SimulatedFirebase

extension ContactDiscoveryScenario {
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The parameters this scenario reads, as values (a misspelt name does not compile).
    /// The quota allows each user's two discoveries.
    public var constraints: [ParameterConstraint] {
        [.atLeast(Parameter.lookupsPerDay, Parameter.contactsPerUser, times: 2)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "UFree users, each with a number in a 10,000-number block of the US or GB plan", default: 30, in: 2...2_000, cost: .linear)
        static let gbPercent = ScenarioParameter(
            "gbPercent", "users whose phone (and address book) is in the UK", default: 30, in: 0...100)
        static let contactsPerUser = ScenarioParameter(
            "contactsPerUser", "address-book entries per user (seven in ten are other users, the rest strangers)", default: 12, in: 0...200, notable: [100], cost: .linear)
        static let registerSpreadSeconds = ScenarioParameter(
            "registerSpreadSeconds", "users register their number and run a first discovery within this window", default: 60, in: 1...86_400, cost: .linear)
        static let attackers = ScenarioParameter(
            "attackers", "signed-in scripts trying to learn numbers (offline hash inversion, then enumeration)", default: 1, in: 0...5, cost: .linear)
        static let lookupsPerDay = ScenarioParameter(
            "lookupsPerDay", "discoverContacts entries answered per caller per day (the careful design's quota)", default: 500, in: 10...100_000)
    }
}
