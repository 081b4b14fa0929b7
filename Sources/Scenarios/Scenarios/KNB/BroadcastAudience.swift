import SimulatedFirebase
import Synchronization

/// Who admin-broadcast's announcements are for: the members in id order, their devices' tokens,
/// who turned notifications off (confirmed, or sent without an answer), which apps were
/// uninstalled, which devices FCM gave a new token. Written during the run, read by the checks.
final class BroadcastAudience: Sendable {
    /// The announcing admin (owed nothing).
    let admin: String
    /// A device whose token FCM replaced during the run.
    struct Rotation: Sendable {
        /// The token FCM handed the device instead.
        let new: String
        /// When FCM replaced it.
        let at: Timestamp
        /// When the app's refresh handler returned (nil: it never did).
        var handledAt: Timestamp?
    }

    private struct State {
        var members: [String] = []
        var tokens: [String: [String]] = [:]
        var owners: [String: String] = [:]
        var optedOut: Set<String> = []
        var undecided: Set<String> = []
        var uninstalled: Set<String> = []
        var rotations: [String: Rotation] = [:]  // by the device's first token
    }
    private let state = Mutex(State())

    init(admin: String) { self.admin = admin }

    /// Adds member `email` with `tokens`.
    func add(_ email: String, tokens: [String]) {
        state.withLock { state in
            state.members.append(email)
            state.tokens[email] = tokens
            for token in tokens { state.owners[token] = email }
        }
    }
    /// `email` was told announcements and reply likes are off.
    func optedOut(_ email: String) { state.withLock { _ = $0.optedOut.insert(email) } }
    /// `email` asked to turn them off and got no answer: either may hold.
    func undecided(_ email: String) { state.withLock { _ = $0.undecided.insert(email) } }
    /// `token`'s app was uninstalled.
    func uninstalled(_ token: String) { state.withLock { _ = $0.uninstalled.insert(token) } }

    /// FCM replaced device `token`'s token with `new` at `time`.
    func rotated(_ token: String, to new: String, at time: Timestamp) {
        state.withLock { state in
            state.rotations[token] = Rotation(new: new, at: time)
            state.owners[new] = state.owners[token]
        }
    }
    /// The app on device `token` finished handling its new token at `time`.
    func refreshHandled(_ token: String, at time: Timestamp) { state.withLock { $0.rotations[token]?.handledAt = time } }
    /// The rotation of the device whose first token is `token`, if FCM replaced it.
    func rotation(of token: String) -> Rotation? { state.withLock { $0.rotations[token] } }

    /// How many members there are.
    var count: Int { state.withLock { $0.members.count } }
    /// The `index`-th member.
    func member(_ index: Int) -> String { state.withLock { $0.members[index] } }
    /// Every member, in id order.
    var members: [String] { state.withLock { $0.members } }
    /// `email`'s tokens.
    func tokens(of email: String) -> [String] { state.withLock { $0.tokens[email] ?? [] } }
    /// Whether `email` confirmed turning announcements and reply likes off.
    func isOptedOut(_ email: String) -> Bool { state.withLock { $0.optedOut.contains(email) } }
    /// Whether `email` is owed announcements and reply likes (on, and known to be on).
    func wantsNotifications(_ email: String) -> Bool {
        state.withLock { !$0.optedOut.contains(email) && !$0.undecided.contains(email) }
    }
    /// Whether `token`'s app was uninstalled.
    func isUninstalled(_ token: String) -> Bool { state.withLock { $0.uninstalled.contains(token) } }
    /// The member a token belongs to (the admin's own device: the admin).
    func owner(of token: String) -> String? {
        if token == KNBScenarioSupport.token(admin) { return admin }
        return state.withLock { $0.owners[token] }
    }
}
