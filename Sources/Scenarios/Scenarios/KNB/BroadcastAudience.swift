import Synchronization

/// Who admin-broadcast's announcements are for: the members in id order, their devices' tokens,
/// who turned notifications off (confirmed, or sent without an answer), which apps were
/// uninstalled. Written during set-up, read by the checks.
final class BroadcastAudience: Sendable {
    /// The announcing admin (owed nothing).
    let admin: String
    private struct State {
        var members: [String] = []
        var tokens: [String: [String]] = [:]
        var owners: [String: String] = [:]
        var optedOut: Set<String> = []
        var undecided: Set<String> = []
        var uninstalled: Set<String> = []
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
