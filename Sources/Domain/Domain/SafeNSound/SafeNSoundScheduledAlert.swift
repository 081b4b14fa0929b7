import SimulatedFirebase

/// A `scheduled_alerts/{alertId}` document: one pre-notification or email for one missed window.
public struct SafeNSoundScheduledAlert: Sendable, Equatable {
    /// What the alert sends.
    public enum Kind: String, Sendable, CaseIterable {
        case preNotification = "pre_notification"
        case emailAlert = "email_alert"
    }

    /// Lifecycle: scheduled → sending (claimed by one sender run) → sent, or → cancelled; the
    /// `email-failure-marks-failed` variant also ends an email that kept failing as `failed`.
    public enum Status: String, Sendable {
        case scheduled, sending, sent, cancelled, failed
    }

    /// The document id (deterministic in the careful design).
    public var alertId: String
    /// The user who missed the check-in.
    public var userId: String
    /// Pre-notification push or email alert.
    public var kind: Kind
    /// When the sender should send it.
    public var scheduledFor: Timestamp
    /// Where it is in its lifecycle.
    public var status: Status
    /// When the check created it.
    public var createdAt: Timestamp
    /// The `lastHeartbeat` this alert's missed window started from; a later heartbeat voids it.
    public var windowLastHeartbeat: Timestamp
    /// When a sender run claimed it (status `sending`).
    public var claimedAt: Timestamp?
    /// Recipients (email addresses, or the FCM token) the provider confirmed, in delivery order.
    /// A retry skips them, so a 429 for the second contact does not re-email the first. Written
    /// by the claim holder, one transaction per recipient, right after the provider's answer.
    public var deliveredTo: [String] = []
    /// Recipients fixed when the alert was created (only the `contacts-fixed-at-check` variant sets
    /// them); empty: the sender emails the user's contacts as they are when it sends.
    public var recipients: [String] = []
    /// Consecutive failed send attempts (the retry backoff grows with it; logged on the document).
    public var failedAttempts = 0

    /// The deterministic id: one alert per kind per user per missed window, so re-running the
    /// 30-minute check can never create a second one (`create` fails with ALREADY_EXISTS).
    public static func deterministicId(userId: String, windowLastHeartbeat: Timestamp, kind: Kind) -> String {
        "\(userId)_\(windowLastHeartbeat.unixNanoseconds)_\(kind.rawValue)"
    }
}
