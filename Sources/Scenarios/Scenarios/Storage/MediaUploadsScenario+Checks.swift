import FirebaseHarness
import Harness
import SimulatedFirebase

extension MediaUploadsScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile.
    enum Check {
        static let rulesAsDocumented = CheckDeclaration(
            .always, "storage-rules-as-documented",
            "each probe of the Storage rules (oversize, non-image, foreign owner, overwrite, other path, signed out) is refused or allowed as the design documents say",
            requires: [.atLeast(Parameter.rulesProbes, 1)], operations: ["probe"])
        static let avatarNeverBroken = CheckDeclaration(
            .always, "avatar-never-broken", "a reader of a public avatar always sees the image, never a 403 placeholder or a 404",
            requires: [.atLeast(Parameter.avatarOwners, 1), .atLeast(Parameter.readers, 1)], operations: ["avatar-update", "avatar-read"])
        static let noDanglingURL = CheckDeclaration(
            .eventually, "no-dangling-url", "every Storage object a document names (mediaItems, thumbnailUrl, profilePictureUrl, photoUrls) exists, once idle",
            operations: ["post-with-images", "avatar-update", "collect-with-photos", "double-tap collect-with-photos"])
        static let noOrphanedObject = CheckDeclaration(
            .eventually, "no-orphaned-object", "every Storage object is named by some document, once idle",
            operations: ["post-with-images", "avatar-update", "collect-with-photos", "double-tap collect-with-photos", "probe"])
        static let copiedAvatarURLRevoked = CheckDeclaration(
            .eventually, "copied-avatar-url-revoked",
            "an avatar's download URL copied while it was public shows nothing to a stranger once the avatar is groups-only, once idle",
            requires: [.atLeast(Parameter.rulesProbes, 1)], operations: ["probe"])
        static let uploadRetried = CheckDeclaration(
            .sometimes, "upload-retried", "an upload failed mid-transfer and its retry stored it",
            requires: [.atLeast(Parameter.uploadFailurePercent, 1)])
        static let uploadDropped = CheckDeclaration(
            .sometimes, "upload-dropped", "an image or photo was dropped after every attempt failed, and the rest went out",
            requires: [.atLeast(Parameter.uploadFailurePercent, 1)])
        static let doubleCollectCleanedUp = CheckDeclaration(
            .sometimes, "double-collect-cleaned-up", "the losing tap of a double-tapped collect was refused and deleted its photos",
            requires: [.atLeast(Parameter.collectors, 1), .atLeast(Parameter.doubleTapPercent, 1)])
        static let avatarReadDuringUpdate = CheckDeclaration(
            .sometimes, "avatar-read-during-update", "a reader viewed an avatar while its owner's update was in flight",
            requires: [.atLeast(Parameter.avatarOwners, 1), .atLeast(Parameter.readers, 1)])
    }
}
