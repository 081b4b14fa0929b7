import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// admin-broadcast's checks, judged from what members see: their in-app notifications, the pushes
/// FCM delivered to their devices (the outbox, scanned once in order) and their user documents,
/// against what each member chose (`BroadcastAudience`) and did (`BroadcastLog`). The platform's
/// own records say what it made impossible: a device FCM answered a transient failure may go
/// unrung, and an invocation it terminated may ring a device twice.
final class BroadcastMonitor: Sendable {
    private let app: KNBApp
    private let audience: BroadcastAudience
    private let log: BroadcastLog
    private struct State {
        /// Outbox records scanned so far.
        var scanned = 0
        /// ADMIN_POST pushes per "post|token".
        var pushes: [String: Int] = [:]
        /// `Firestore.committedChanges` at the last scan of the inboxes (nil: none yet).
        var inboxesScannedAt: UInt64?
    }
    private let state = Mutex(State())

    init(app: KNBApp, audience: BroadcastAudience, log: BroadcastLog) {
        self.app = app
        self.audience = audience
        self.log = log
    }

    typealias Check = AdminBroadcastScenario.Check
    /// How soon after the admin was told it was posted every member has an announcement.
    static let promptness = Duration.seconds(120)
    /// What each terminated invocation of the fan-out may add: two redeliveries' longest backoffs
    /// (the first may find the dead holder's lease still running) and the lease.
    static let redeliveryAllowance = BackendFaults.default.triggerRetryBackoffMax * 2 + KNBApp.broadcastLease

    /// The Always checks over what arrived since the last call; with `final`, the end checks too.
    func check(_ context: ScenarioContext, final: Bool) {
        scanPushes(context)
        checkOptedOutInboxes(context)
        guard final else { return }
        checkAnnouncements(context)
        checkDeadTokens(context)
        checkReplyLikes(context)
    }

    /// New pushes: none to the admin or an opted-out member, none twice beyond what terminations allow.
    private func scanPushes(_ context: ScenarioContext) {
        let records = app.backend.outbox.records
        var touched: [(key: String, post: String, count: Int)] = []
        state.withLock { state in
            for record in records[min(state.scanned, records.count)...] where record.channel == .push {
                guard let token = record.token, let owner = audience.owner(of: token) else { continue }
                switch record.type {
                case "ADMIN_POST":
                    let post = record.payload["postId"] ?? "?"
                    context.always(Check.noAnnouncementWhenOptedOut, owner != audience.admin && !audience.isOptedOut(owner),
                                   "announcement \(post) rang \(owner)'s device \(token), but \(owner == audience.admin ? "they posted it" : "they turned announcements off")")
                    let key = "\(post)|\(token)"
                    state.pushes[key, default: 0] += 1
                    touched.append((key, post, state.pushes[key]!))
                case "REPLY_LIKE":
                    context.always(Check.noReplyLikeWhenOptedOut, !audience.isOptedOut(owner),
                                   "a REPLY_LIKE rang \(owner)'s device \(token), but they turned reply likes off")
                default: continue
                }
            }
            state.scanned = records.count
        }
        // Read only when new pushes arrived: a run whose trigger keeps being retried passes here every second.
        let terminated = touched.isEmpty ? [:] : ScenarioSupport.terminatedInvocations(app.backend, function: "onPostCreate")
        for (key, post, count) in touched {
            let allowed = 1 + (terminated["\(DocumentPath("social_posts", post))"] ?? 0)
            context.always(Check.announcementRingsOnce, count <= allowed,
                           "announcement \(post) rang device \(key.split(separator: "|").last ?? "?") \(count) times (\(allowed - 1) terminated fan-outs allow \(allowed))")
        }
        context.always(Check.announcementRingsOnce, true, "")
        context.always(Check.noAnnouncementWhenOptedOut, true, "")
        context.always(Check.noReplyLikeWhenOptedOut, true, "")
    }

    /// The in-app notifications of members who turned notifications off, and of the admin (not
    /// read again while nothing was committed: a trigger's retries can keep a run going for hours).
    private func checkOptedOutInboxes(_ context: ScenarioContext) {
        let commits = app.backend.firestore.committedChanges
        let unchanged = state.withLock { state in
            defer { state.inboxesScannedAt = commits }
            return state.inboxesScannedAt == commits
        }
        guard !unchanged else { return }
        for member in audience.members + [audience.admin] where member == audience.admin || audience.isOptedOut(member) {
            for note in inbox(member) {
                let type = note["type"]?.stringValue
                if type == "ADMIN_POST" {
                    context.always(Check.noAnnouncementWhenOptedOut, false,
                                   "\(member) has announcement \(Self.data(note, "postId")) in the app, but \(member == audience.admin ? "they posted it" : "they turned announcements off")")
                } else if type == "REPLY_LIKE" && member != audience.admin {
                    context.always(Check.noReplyLikeWhenOptedOut, false, "\(member) has a REPLY_LIKE in the app, but turned reply likes off")
                }
            }
        }
    }

    /// Every member who wants announcements has each one once in the app and on every installed device.
    private func checkAnnouncements(_ context: ScenarioContext) {
        let reached = devicesReached()
        // Only crashes excuse a late announcement: a fan-out that outlives its timeout is the
        // design's own doing (the limit is documented), not the platform's.
        let crashed = ScenarioSupport.terminatedInvocations(app.backend, function: "onPostCreate", by: [.functionCrash])
        // Nor does a stall of the platform's: a function waits out each admin answer it lost
        // (MODEL_RULES §22), however the design is built; the whole run's count bounds the post's.
        let stalls = app.backend.faults.adminAnswerLostWait * (app.backend.faultLedger.tallies[.adminAnswerLost]?.observed ?? 0)
        // Nor does an event the platform held back (`trigger-late`, MODEL_RULES §29): its hold.
        let late = ScenarioSupport.lateDeliveries(app.backend, function: "onPostCreate")
        for post in log.announcements {
            let stops = crashed["\(DocumentPath("social_posts", post))"] ?? 0
            let held = app.backend.faults.triggerLateDelayMax * (late["\(DocumentPath("social_posts", post))"] ?? 0)
            let deadline = log.announcedAt(post).map { $0 + Self.promptness + stalls + Self.redeliveryAllowance * stops + held }
            for member in audience.members where audience.wantsNotifications(member) {
                let copies = inbox(member).filter { $0["type"] == "ADMIN_POST" && Self.data($0, "postId") == post }
                context.eventually(Check.announcementInEveryInbox, copies.count == 1, "\(member) has announcement \(post) \(copies.count) times in the app")
                if let deadline, let first = copies.map(\.updateTime).min() {
                    context.eventually(Check.announcementPrompt, first <= deadline,
                                       "\(member) got announcement \(post) at \(first), after \(deadline) (\(stops) crashed fan-outs, \(stalls) of lost answers, \(held) held back)")
                }
                for token in audience.tokens(of: member) {
                    guard !audience.isUninstalled(token) else { continue }
                    let rotation = audience.rotation(of: token)
                    let tokens = [token] + (rotation.map { [$0.new] } ?? [])
                    let rang = tokens.contains { reached.contains("\(post)|\($0)") || app.backend.messaging.hadTransientFailure($0) }
                    context.eventually(Check.announcementRingsEveryDevice, rang || Self.excused(post, rotation: rotation, log: log),
                                       "announcement \(post) never reached \(member)'s device \(token)\(rotation.map { ", whose token FCM replaced with \($0.new) at \($0.at); the app was done with it at \($0.handledAt.map(String.init(describing:)) ?? "never")" } ?? "")")
                }
            }
        }
    }

    /// Whether a device whose token FCM replaced is excused `post`: a fan-out may have read the
    /// member's tokens before the app recorded the new one, so a device is owed only the
    /// announcements first asked for after its app was done handling the new token (at once, for an
    /// app that ignores it); one whose app never was is owed none.
    private static func excused(_ post: String, rotation: BroadcastAudience.Rotation?, log: BroadcastLog) -> Bool {
        guard let rotation else { return false }
        guard let handled = rotation.handledAt, let requested = log.requestedAt(post) else { return true }
        return requested <= handled
    }

    /// Every "post|token" an ADMIN_POST push reached, read once the run is over (a push's fate can
    /// change after it was sent). A push APNs replaced while the device was away counts: APNs keeps
    /// one notification per app for it, so the device showed a newer one of the app instead, and no
    /// design can do better; so does one a newer push with its collapse key replaced. A push
    /// dropped past its time to live did not reach the device.
    private func devicesReached() -> Set<String> {
        var reached: Set<String> = []
        for record in app.backend.outbox.records where record.channel == .push && record.type == "ADMIN_POST" && record.fate != .expired {
            guard let token = record.token else { continue }
            reached.insert("\(record.payload["postId"] ?? "?")|\(token)")
        }
        return reached
    }

    /// Members who were sent an announcement keep no token of an uninstalled app.
    private func checkDeadTokens(_ context: ScenarioContext) {
        guard !log.announcements.isEmpty else { return }
        for member in audience.members where audience.wantsNotifications(member) {
            let stored = app.backend.firestore.liveFields(DocumentPath("users", member))?["fcmTokens"]?.mapValue ?? [:]
            for token in audience.tokens(of: member) where audience.isUninstalled(token) {
                context.eventually(Check.deadTokensRemoved, stored[token] == nil, "\(member) still holds \(token), whose app was uninstalled")
                context.sometimes(Check.deadTokenRemoved, stored[token] == nil)
            }
        }
    }

    /// Each confirmed like of another member's reply is a REPLY_LIKE in the author's notifications.
    private func checkReplyLikes(_ context: ScenarioContext) {
        let replies = log.replies
        for like in log.likes {
            guard let author = replies[like.reply], author != like.liker, audience.wantsNotifications(author) else { continue }
            let found = inbox(author).contains {
                $0["type"] == "REPLY_LIKE" && Self.data($0, "postId") == like.reply && Self.data($0, "liker") == like.liker
            }
            context.eventually(Check.replyLikeNotified, found, "\(like.liker) liked \(author)'s reply \(like.reply), but \(author) has no REPLY_LIKE for it")
            context.sometimes(Check.replyLikeSent, found)
        }
    }

    private func inbox(_ member: String) -> [DocumentSnapshot] { app.backend.firestore.query("users/\(member)/notifications") }

    private static func data(_ note: DocumentSnapshot, _ key: String) -> String {
        note["data"]?.mapValue?[key]?.stringValue ?? "?"
    }
}
