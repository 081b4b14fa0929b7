/// Which UFree design runs: the careful default or one literal, flawed reading of the seed.
public enum UFreeVariant: String, AppVariant {
    /// One friendship document per pair, crossing requests auto-accept, server-side nudge cooldown,
    /// "today" in the user's time zone.
    case careful = "careful"
    /// Requests are independent per direction and each accept creates a friendship with a random
    /// id: two users requesting each other at once end with two friendships.
    case twoWayRequests = "two-way-requests"
    /// Nudge protection is only the client's `isProcessing` flag: taps a moment apart all go through.
    case clientTapGuardOnly = "client-tap-guard-only"
    /// "Today" (for the no-past-dates rule) is computed in UTC, rejecting valid days in the Americas.
    case utcToday = "utc-today"
    /// The nudge button's view model guards with its own cooldown table (no server check), but
    /// marks the nudge only after an await (the haptic feedback): a rapid tap preempted there
    /// also passes the guard.
    case nudgeGuardReentrant = "nudge-guard-reentrant"
    /// Offline-first devices with the seed's rules (`allow write: if isOwner(userId)`): a write
    /// queued offline on one device overwrites a newer edit the other device synced meanwhile.
    case lastArrivalWins = "last-arrival-wins"

    /// One sentence on what this variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: exactly one friendship per pair, one nudge per cooldown, local today."
        case .twoWayRequests: return "Crossing friend requests create two friendships; removing one leaves a ghost friendship."
        case .clientTapGuardOnly: return "Rapid taps (or two devices) deliver several nudges; only an in-flight flag guards them."
        case .utcToday: return "Past-date check uses UTC: an evening user in the Americas cannot set today's status."
        case .nudgeGuardReentrant: return "Two rapid taps preempted between the view model's cooldown check and its mark both nudge."
        case .lastArrivalWins: return "A status set offline on one device overwrites a newer one set on the user's other device when it syncs."
        }
    }

    /// "ufree".
    public static var app: String { "ufree" }
}
