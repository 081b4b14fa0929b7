import SimulatedFirebase

/// What a friend-request action did to a pair of users.
public enum UFreeFriendshipOutcome: Equatable, Sendable {
    case requested
    case becameFriends
    case declined
    case removed
}
