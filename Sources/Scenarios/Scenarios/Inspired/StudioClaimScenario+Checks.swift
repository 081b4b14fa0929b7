import FirebaseHarness
import Harness
import SimulatedFirebase

extension StudioClaimScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let claimedHasOwner = CheckDeclaration(
            .always, "claimed-has-owner", "a studio is claimed exactly when it has an ownerId", operations: ["claim"])
        static let oneOwnerTold = CheckDeclaration(
            .always, "one-owner-told-per-studio", "at most one claimant is told they own a studio", operations: ["claim"])
        static let claimKept = CheckDeclaration(
            .always, "claim-kept", "a claim the owner was told succeeded stays: the studio is claimed and owned by them", operations: ["claim"])
        static let ownerEditKept = CheckDeclaration(
            .eventually, "owner-edit-kept", "a studio's about is its owner's last acknowledged edit (or a later one sent), once idle",
            operations: ["edit"])
        static let everyPlaceSeeded = CheckDeclaration(
            .eventually, "every-place-seeded", "every place open at the last seeding tick has a studio, once idle")
        static let placesDataCurrent = CheckDeclaration(
            .eventually, "places-data-current",
            "each studio's Places fields are the catalogue's listing of the revision it holds, no older than the last tick's, once idle")
        static let claimRefused = CheckDeclaration(
            .sometimes, "claim-refused-already-claimed", "a second claimant was refused because the studio was claimed",
            requires: [.atLeast(Parameter.claimantsPerStudio, 2)])
        static let impostorRefused = CheckDeclaration(
            .sometimes, "impostor-refused", "a claim with a wrong verification code was refused", requires: [.atLeast(Parameter.impostorPercent, 1)])
    }
}
