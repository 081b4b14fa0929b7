import FirebaseHarness
import Harness
import SimulatedFirebase

extension NudgeStormScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let localTodayAccepted = CheckDeclaration(
            .always, "local-today-accepted", "setting the status of one's own local today is never refused as a past date", operations: ["set"])
        static let oneNudgePerCooldown = CheckDeclaration(
            .always, "one-nudge-per-cooldown", "nudges from one sender to one recipient are at least the cooldown apart", operations: ["nudge"])
        static let nudgeAllOnlyFree = CheckDeclaration(
            .always, "nudge-all-only-free", "Nudge All nudges (or tries) only friends free on the day", operations: ["set", "nudge all"])
        static let oneNotificationPerNudge = CheckDeclaration(
            .eventually, "one-notification-per-nudge", "every delivered nudge has its notification, and none appears without a call reaching the backend", operations: ["nudge"])
        static let rapidTapRefused = CheckDeclaration(
            .sometimes, "rapid-tap-refused", "a rapid tap was refused (cooldown or in flight)", requires: [.atLeast(Parameter.tapsMax, 2), .atMost(Parameter.nudgeAllPercent, 99)])
        static let inboxMatchesServer = CheckDeclaration(
            .eventually, "inbox-matches-server",
            "once idle, every open inbox shows the server's notifications and its badge equals the server's unread count", operations: ["read"])
        static let upToDateIsSaved = CheckDeclaration(
            .always, "up-to-date-is-saved",
            "whenever an inbox says \"✓ Up to date\", every notification it shows read is read on the server", operations: ["read"])
        static let settlesUpToDate = CheckDeclaration(
            .eventually, "settles-up-to-date", "once idle, every open inbox says \"✓ Up to date\" (not offline, not syncing)", operations: ["read"])
        static let savedReadStaysRead = CheckDeclaration(
            .always, "saved-read-stays-read",
            "a notification whose read a device saved is never drawn unread on that device again", operations: ["read"])
        static let readShownSyncing = CheckDeclaration(
            .sometimes, "read-shown-syncing", "a tapped notification showed read while its write was on the way (\"Syncing…\")",
            requires: [.atLeast(Parameter.inboxPercent, 1)])
        static let readOnOtherDevice = CheckDeclaration(
            .sometimes, "read-on-other-device", "a notification read on one of a user's devices showed read on the other",
            requires: [.atLeast(Parameter.inboxPercent, 1)])
        static let readOnlyWhatWasShown = CheckDeclaration(
            .always, "read-only-what-was-shown", "a notification is read on the server only if a screen of its user showed it unread when they marked it read (one tapped, or Mark all read)", operations: ["read"])
        static let markedAllRead = CheckDeclaration(
            .sometimes, "marked-all-read", "Mark all read saved every notification the screen showed unread", requires: [.atLeast(Parameter.inboxPercent, 1), .atLeast(Parameter.markAllPercent, 1)])
        static let nudgeAllSent = CheckDeclaration(
            .sometimes, "nudge-all-sent", "Nudge All reached a free friend", requires: [.atLeast(Parameter.nudgeAllPercent, 1), .atLeast(Parameter.freePercent, 1)])
    }
}
