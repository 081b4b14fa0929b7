/// What a friend-request action did to a pair; `version` orders the friendIds updates it causes.
public enum UFreeFriendshipOutcome: Equatable, Sendable {
    case requested
    case becameFriends(version: Int)
    case declined
    case removed(version: Int)
}
