import FirebaseHarness
import Harness
import SimulatedFirebase

extension HeartbeatTimelineScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let oneAlertPerKindPerWindow = CheckDeclaration(
            .always, "one-alert-per-kind-per-window", "at most one scheduled alert per user, kind and missed window", operations: ["onboarded:", "paused", "check-in", "cancelled", "email", "push"])
        static let noDoubleSend = CheckDeclaration(
            .always, "no-double-send", "each alert reaches each recipient at most once, except again right after a SendGrid time-out (may have been sent: retried, at-least-once)", operations: ["check-in", "email", "push"])
        static let noAlertAfterCheckin = CheckDeclaration(
            .always, "no-alert-after-checkin", "nothing is sent for a window after a check-in closed it or the user paused monitoring", operations: ["onboarded:", "paused", "check-in", "cancelled", "email", "push"])
        static let alertOnTime = CheckDeclaration(
            .always, "alert-on-time", "pre-notification at threshold − 3 h and email at the threshold (elapsed time), never early, at most one sender period + jitter late per attempt", operations: ["onboarded:", "paused", "check-in", "cancelled", "email", "push"])
        static let emailShowsLocalTime = CheckDeclaration(
            .always, "email-shows-local-time", "the email shows the last check-in in the user's time zone", operations: ["onboarded:", "check-in", "email"])
        static let checkInNotRefused = CheckDeclaration(
            .always, "check-in-not-refused", "a check-in that reaches the server is never refused for who the user or their device is (the network, the platform's failures and a double tap's rate limit aside): a refused tap alarms the contacts of a user who tapped", operations: ["check-in"])
        static let rateLimitRespected = CheckDeclaration(
            .always, "rate-limit-respected", "accepted heartbeats of one user are at least 60 s apart", operations: ["check-in"])
        static let missedWindowAlerted = CheckDeclaration(
            .eventually, "missed-window-alerted", "every active user whose threshold passed without a check-in had their contacts emailed", operations: ["onboarded:", "paused", "check-in", "cancelled", "email", "push"])
        static let preNotificationSent = CheckDeclaration(
            .sometimes, "pre-notification-sent", "a pre-notification push went out")
        static let emailSent = CheckDeclaration(
            .sometimes, "email-sent", "an email to emergency contacts went out")
        static let checkinCancelledAlert = CheckDeclaration(
            .sometimes, "checkin-cancelled-alert", "a check-in cancelled a scheduled alert")
        static let rateLimited = CheckDeclaration(
            .sometimes, "rate-limited", "a double tap's second request was rate limited", requires: [.atLeast(Parameter.rapidTapPercent, 1)])
        static let emailRetried = CheckDeclaration(
            .sometimes, "email-retried", "a SendGrid failure was retried by a later sender run")
        static let retrySkipsDeliveredContacts = CheckDeclaration(
            .sometimes, "retry-skips-delivered-contacts", "a retry after one contact's 429 emailed only the contacts still missing")
        static let resentAfterTimeout = CheckDeclaration(
            .sometimes, "resent-after-timeout", "at-least-once: a SendGrid time-out was retried and the contact emailed again")
        static let monitoringStaysOn = CheckDeclaration(
            .always, "monitoring-stays-on", "only the user turns monitoring off: a push failure (invalid FCM token) never sets isActive = false", operations: ["onboarded:", "paused", "push", "app launch:"])
        static let pushTokenCurrent = CheckDeclaration(
            .always, "push-token-current", "users/{uid}.fcmToken is the token the device registered last (or empty once FCM rejected it)", operations: ["push", "app launch:"])
        static let pushToReregisteredToken = CheckDeclaration(
            .sometimes, "push-to-reregistered-token", "a pre-notification reached a token the app registered after FCM rejected the old one", requires: [.atLeast(Parameter.tokenChurnPercent, 1)])
        static let noAlertForAbandonedAccount = CheckDeclaration(
            .always, "no-alert-for-abandoned-account", "after a reinstall onboarded a new account, the old one alerts nobody (beyond one send already in flight)", operations: ["onboarded:", "reinstalled", "check-in", "email", "push"])
        static let abandonedAccountRetired = CheckDeclaration(
            .always, "abandoned-account-retired", "the account a reinstall left behind is inactive at the end", operations: ["onboarded:", "reinstalled"])
        static let emailSentAfterOutage = CheckDeclaration(
            .sometimes, "email-sent-after-outage", "an email that failed three or more times (a SendGrid outage) still reached its contact", requires: [.atLeast(Parameter.emailOutages, 1)])
        static let emailToCurrentContacts = CheckDeclaration(
            .always, "email-to-current-contacts", "an email alert goes only to addresses on the user's contact list when it is sent (a list set within the last minute counts, the send may have read the one before)", operations: ["onboarded:", "emergency contact", "email"])
        static let emailToEditedContact = CheckDeclaration(
            .sometimes, "email-to-edited-contact", "an email alert reached a contact the user set after onboarding", requires: [.atLeast(Parameter.contactEditPercent, 1)])
        static let rulesDenyForeignAccess = CheckDeclaration(
            .always, "rules-deny-foreign-access", "a device cannot read or write another user's profile, forge its own lastHeartbeat or write heartbeats/alerts directly (expected answers from a table, not from the rules)", operations: ["rules"])
        static let ownWritesAllowed = CheckDeclaration(
            .always, "own-writes-allowed", "a device reads its own profile and changes its own settings (preferredLanguage)", operations: ["rules"])
        static let dstWindowEmailed = CheckDeclaration(
            .sometimes, "dst-window-emailed", "an email went out for a window spanning a DST change")
    }
}
