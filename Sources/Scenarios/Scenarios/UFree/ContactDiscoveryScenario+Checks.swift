import FirebaseHarness
import Harness
import SimulatedFirebase

extension ContactDiscoveryScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile.
    enum Check {
        static let contactsFound = CheckDeclaration(
            .eventually, "contacts-found",
            "a discovery after every registration finds exactly the address-book entries that are UFree users (whatever their format), and no one else, among the entries the server answered; it leaves unanswered only what the user's lookups beyond the quota account for")
        static let noOfflineRecovery = CheckDeclaration(
            .always, "no-number-recovered-offline",
            "a signed-in stranger reading what the rules let it read recovers no user's phone number by trying the numbering plan offline")
        static let enumerationBounded = CheckDeclaration(
            .always, "enumeration-bounded",
            "a script looking up the numbering plan learns no number from an entry the server did not count against its quota")
        static let quotaEnforced = CheckDeclaration(
            .always, "quota-enforced",
            "the lookups a script had answered (entries sent minus those left unanswered) stay within lookupsPerDay for each UTC day")
        static let lateRegistrationFoundLater = CheckDeclaration(
            .sometimes, "late-registration-found-later",
            "a contact who registered after a user's first discovery was found by the later one")
        static let quotaRefused = CheckDeclaration(
            .sometimes, "quota-refused", "the enumerating script was refused once its daily quota ran out",
            // A quota of the whole plan (20,000 numbers) or more is never exhausted by the script.
            requires: [.atLeast(Parameter.attackers, 1), .atMost(Parameter.lookupsPerDay, 19_999)])
    }
}
