import FirebaseHarness
import Harness
import SimulatedFirebase

extension PrivacyRevocationScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let noReadAfterRevocation = CheckDeclaration(
            .always, "no-read-after-revocation",
            "a profile read succeeds only if some state in effect while it ran allowed it (public, or a shared community)", operations: ["read"])
        static let noWrongDenial = CheckDeclaration(
            .always, "no-wrong-denial", "a profile read is refused only if some state in effect while it ran refused it", operations: ["read"])
        static let joinedGroupsHidden = CheckDeclaration(
            .always, "joined-groups-respect-setting",
            "a user's communities are shown only if some state in effect allowed it (showJoinedGroups: public; groups-only and a shared community), as a list then in effect",
            operations: ["read"])
        static let authorMetadataCurrent = CheckDeclaration(
            .eventually, "author-metadata-current",
            "every post's author info (username, avatarPrivacy, thumbnail URL only for a public avatar) matches the live profile, once idle",
            operations: ["privacy", "post"])
        static let pageHidesRevokedProfile = CheckDeclaration(
            .always, "page-hides-revoked-profile",
            "an open profile page still shows a profile made private only while the viewer could see it, allowing the listener its delivery and a reconnect",
            operations: ["read"])
        static let notFoundOnlyIfMissing = CheckDeclaration(
            .always, "not-found-only-if-missing",
            "an open profile page says \"This account doesn't exist\" only while the server has no such profile", operations: ["read"])
        static let pageOpenedOffline = CheckDeclaration(
            .sometimes, "page-opened-offline", "a profile page opened with its connection down (its first snapshot from the device's copy)")
        static let pageEndedByRevocation = CheckDeclaration(
            .sometimes, "page-ended-by-revocation", "an open profile page's listener was ended by PERMISSION_DENIED")
        static let readRevoked = CheckDeclaration(
            .sometimes, "read-refused-after-revocation", "a read was refused that an earlier state would have allowed")
        static let readGranted = CheckDeclaration(
            .sometimes, "read-allowed-after-grant", "a read succeeded that an earlier state would have refused")
    }
}
