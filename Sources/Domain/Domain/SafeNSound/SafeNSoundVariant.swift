import SimulatedFirebase

/// Which SafeNSound design runs: the careful default, or one literal reading of the seed that has a known bug.
///
/// Selected at run time by its kebab-case raw value (`SafeNSoundVariant(rawValue: "unclaimed-sender")`).
/// Each non-default case reproduces exactly one flaw of the seed taken literally; its `summary`
/// says what goes wrong so a run's report can explain a violation.
public enum SafeNSoundVariant: String, AppVariant {
    /// Deterministic alert ids, transactional claims, heartbeat re-check, exact due times, atomic
    /// rate limit, user-time-zone email, elapsed-time thresholds.
    case careful = "careful"
    /// `scheduled_alerts` documents get random ids, so every 30-minute run re-creates the alert.
    case randomAlertId = "random-alert-id"
    /// The 2-minute sender reads due alerts, sends, then marks them sent, without a claim.
    case unclaimedSender = "unclaimed-sender"
    /// The sender claims an alert but does not re-check `lastHeartbeat` before sending.
    case noHeartbeatRecheck = "no-heartbeat-recheck"
    /// The 30-minute check creates alerts only once they are due, `scheduledFor = now`.
    case latePreNotification = "late-pre-notification"
    /// `recordHeartbeat` reads the last call time, awaits other writes, then writes.
    case readThenWriteRateLimit = "read-then-write-rate-limit"
    /// The email formats the last check-in in the function's own time zone (UTC).
    case utcEmail = "utc-email"
    /// "72 h" is computed as "same wall-clock time 3 days later" in the user's time zone.
    case wallClockThreshold = "wall-clock-threshold"
    /// "Max 1 heartbeat per minute" kept in the function instance's memory (last accepted call
    /// per user): checked, then an await, then recorded, so two calls interleaved there both pass.
    case rateLimitInMemory = "rate-limit-in-memory"
    /// "Invalid FCM Token — Firebase: Mark user as inactive, log error; iOS: Re-register FCM token
    /// on next app launch": an UNREGISTERED push turns monitoring off, and re-registering the token
    /// does not turn it back on, so the user's contacts are never emailed again.
    case invalidTokenDeactivates = "invalid-token-deactivates"
    /// "Sign in anonymously on app launch if no user exists": a reinstall gets a new anonymous uid
    /// and onboards a new `users/{uid}`, and nothing retires the old one, which stays active and
    /// emails the person's contacts when its frozen `lastHeartbeat` passes the threshold.
    case reinstallOrphansAccount = "reinstall-orphans-account"
    /// "Email Send Failure — Retry with exponential backoff; Log failure, mark alert as failed;
    /// Optionally send to backup email service": after `emailMaxAttempts` failed attempts the email
    /// alert is `failed` for good and, the backup being optional, nobody is emailed.
    case emailFailureMarksFailed = "email-failure-marks-failed"
    /// "checkMissedHeartbeats … If threshold exceeded: → Send email to emergency contacts": the
    /// check that creates the email alert fixes its recipients from the user it read, so a contact
    /// removed or replaced in Settings before the email goes out still gets it (and the new one not).
    case contactsFixedAtCheck = "contacts-fixed-at-check"
    /// "Required for Firestore security rules: `request.auth != null`" taken as the whole rule:
    /// any signed-in (anonymous) user reads and writes every user's profile, contacts included.
    case rulesAuthNotNullOnly = "rules-auth-not-null-only"
    /// "Daily" taken as "24 h after the last reminder": the next reminder is due at the last one's
    /// send time + 24 h, which after a DST change is an hour off the user's `dailyReminderTime`.
    case reminderEvery24h = "reminder-every-24h"
    /// `dailyReminderTime` read in the function's own time zone (UTC) instead of the user's `timezone`.
    case reminderUTCTime = "reminder-utc-time"
    /// A stateless "is it hh:mm there now?" test on each run's scheduled time: a time the
    /// spring-forward skips never matches, a time the fall-back repeats matches twice (and so does a
    /// duplicated scheduler tick).
    case reminderLocalClockMatch = "reminder-local-clock-match"

    /// `sendDailyReminders` queries users with a reminder in one page of 100 (`limit(100)`, the
    /// query's batch) and never reads the next: users past the hundredth get no reminder.
    case reminderQueryFirstPage = "reminder-query-first-page"
    /// The 30-minute check removes the users it takes from the index before it handles them: a run
    /// whose instance dies mid-way leaves the rest unindexed, and their contacts never get the email.
    case checkTakesForGood = "check-takes-for-good"
    /// The due-alert query (`status == …` ordered by `scheduledFor`) deployed without its composite
    /// index: the emulator runs it, production refuses it (FAILED_PRECONDITION), so the 2-minute
    /// sender finds nothing and no alert is ever sent.
    case alertsIndexNotDeployed = "alerts-index-not-deployed"
    /// The careful rules with the development rule left in after them, `match /{document=**}
    /// { allow read: if request.auth != null }`, in the belief that the specific `users` rule
    /// still decides: Firestore grants a request when any matching statement allows it, so every
    /// signed-in user reads every profile and its emergency contacts.
    case rulesDevCatchAll = "rules-dev-catch-all"
    /// `recordHeartbeat` deployed with App Check enforced (the seed's "App Check: verify requests
    /// come from legitimate app", applied to the check-in too): a device whose attestation fails
    /// for good can never check in, and its user's contacts are emailed though they tapped on time.
    case appCheckEnforcedHeartbeat = "app-check-enforced-heartbeat"
    /// One sentence on what this variant gets wrong (or, for `careful`, what it guarantees).
    public var summary: String {
        switch self {
        case .careful:
            return "Careful design: one alert per kind per missed window, claimed once, re-checked before sending."
        case .randomAlertId:
            return "Alert spam: each 30-minute run adds a new alert with a random id for the same missed window."
        case .unclaimedSender:
            return "Overlapping 2-minute runs both send the same alert, and an alert cancelled after the read is still sent."
        case .noHeartbeatRecheck:
            return "A heartbeat that lands after the 30-minute check read the user does not stop the alert."
        case .latePreNotification:
            return "The pre-notification (and email) go out up to 30 minutes late because alerts are only created when due."
        case .readThenWriteRateLimit:
            return "Two concurrent heartbeat calls both pass the 1-per-minute rate limit."
        case .utcEmail:
            return "The email shows the last check-in in UTC instead of the user's time zone."
        case .wallClockThreshold:
            return "Thresholds use wall-clock days, so across a DST change the alert fires an hour early or late."
        case .rateLimitInMemory:
            return "Two heartbeat calls interleaved inside the function's in-memory rate limiter are both accepted."
        case .invalidTokenDeactivates:
            return "A push to an invalid FCM token marks the user inactive, so their missed check-ins never email their contacts."
        case .rulesAuthNotNullOnly:
            return "Any signed-in user reads another user's emergency contacts and can forge their own lastHeartbeat."
        case .contactsFixedAtCheck:
            return "An email alert goes to the contacts the 30-minute check read, not the ones the user set before it was sent."
        case .emailFailureMarksFailed:
            return "An email that fails a few times in a SendGrid outage is marked failed and never sent: the contacts are not told."
        case .reinstallOrphansAccount:
            return "After a reinstall the old anonymous account stays active and emails the contacts though the person checks in on the new one."
        case .reminderEvery24h:
            return "After a DST change the daily reminder comes an hour early or late, because it is due 24 h after the last one."
        case .reminderUTCTime:
            return "The daily reminder comes at the chosen hour in UTC, not in the user's time zone."
        case .reminderLocalClockMatch:
            return "A reminder time the spring-forward skips is never sent that day; one the fall-back repeats is sent twice."
        case .reminderQueryFirstPage: return "Daily reminders read one page of 100 users: users past the hundredth are never reminded."
        case .checkTakesForGood: return "The missed-heartbeat check unindexes users before handling them: a crashed run leaves them unchecked for good."
        case .rulesDevCatchAll:
            return "A catch-all read rule left from development grants what the specific users rule refuses: any signed-in user reads every profile."
        case .alertsIndexNotDeployed:
            return "The due-alert query's composite index is not deployed: production refuses the query, so no pre-notification or email is ever sent."
        case .appCheckEnforcedHeartbeat:
            return "Check-in enforces App Check: a device whose attestation fails can never check in, so its user's contacts are alarmed though they tapped on time."
        }
    }

    /// "safensound".
    public static var app: String { "safensound" }
}
