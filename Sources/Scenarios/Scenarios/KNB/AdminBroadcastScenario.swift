import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// KNB announcements: the super admin posts announcements that go to every member (ADMIN_POST, in
/// the app and on each device), some members have turned announcements and reply likes off, some
/// devices had the app uninstalled, FCM replaces a few devices' tokens meanwhile, and members
/// reply to the first announcement and like the replies (REPLY_LIKE). Its checks judge every inbox
/// and device against what each member chose.
public struct AdminBroadcastScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .adminBroadcast }
    /// The name `rehearse` takes.
    public let name = "admin-broadcast"
    /// One line for `rehearse list`.
    public let summary = "KNB announcements fanned out to every member: preferences off, uninstalled apps, replies and their likes"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users, Parameter.devicesPerUser, Parameter.optOutPercent, Parameter.staleDevicePercent,
        Parameter.announcements, Parameter.replies, Parameter.replyLikes,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["announce", "reply", "likeReply"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([
        KNBVariant.broadcastOneByOne, .broadcastSingleMulticast, .broadcastIgnoresPreference, .staleTokensKept, .broadcastLeasePlainWrite,
        .broadcastOwnLeaseBusy, .broadcastProgressEveryChunk, .broadcastPushNowOrNever, .tokenStoredAtSignIn,
    ])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.announcementInEveryInbox, Check.announcementPrompt, Check.announcementRingsEveryDevice, Check.announcementRingsOnce,
        Check.noAnnouncementWhenOptedOut, Check.deadTokensRemoved, Check.replyLikeNotified, Check.noReplyLikeWhenOptedOut,
        Check.deadTokenRemoved, Check.replyLikeSent,
    ]

    /// Announcements are posted this far apart.
    static let announcementGap = Duration.seconds(20)

    /// Runs one seed: members, their choices and uninstalled apps, then the announcements, replies
    /// and likes under a monitor, then the end checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = KNBApp(backend: context.backend(), variant: ScenarioSupport.variant(context, KNBVariant.self))
        let (admin, adminRegistered) = await KNBScenarioSupport.account(app, email: KNBRules.superAdminEmail, name: "Admin")
        let audience = BroadcastAudience(admin: admin.email)
        await Self.seedMembers(app, count: p[Parameter.users], devices: p[Parameter.devicesPerUser], audience: audience)
        await Self.optOut(app, audience: audience, context: context)
        Self.uninstall(app, audience: audience, percent: p[Parameter.staleDevicePercent])
        let rotations = Self.drawRotations(app, audience: audience, within: Self.announcementGap * max(1, p[Parameter.announcements] - 1))
        let log = BroadcastLog()
        let monitor = BroadcastMonitor(app: app, audience: audience, log: log)
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .seconds(1), check: { monitor.check(context, final: false) }) {
            await withTaskGroup(of: Void.self) { group in
                if adminRegistered {
                    group.addTask {
                        await Self.announce(admin, count: p[Parameter.announcements], origin: origin, clock: app.backend.env.clock, log: log, context: context)
                    }
                }
                for (member, token, offset) in rotations {
                    let client = app.client(email: member, name: "Member")
                    let at = origin + UInt64(offset.nanoseconds)
                    group.addTask { await Self.rotate(client, of: app, token: token, at: at, audience: audience, context: context) }
                }
                var random = Simulation.random("admin-broadcast/actions")
                for index in 0..<p[Parameter.replies] {
                    let member = app.client(email: audience.member(random.below(audience.count)), name: "Member")
                    let at = origin + 10_000_000_000 + UInt64(random.below(50_000_000_000))
                    group.addTask { await Self.reply(member, index: index, at: at, log: log, context: context) }
                }
                for _ in 0..<p[Parameter.replyLikes] {
                    let member = app.client(email: audience.member(random.below(audience.count)), name: "Member")
                    let at = origin + 60_000_000_000 + UInt64(random.below(60_000_000_000))
                    let pick = random.below(1 << 20)
                    group.addTask { await Self.likeReply(member, pick: pick, at: at, log: log, context: context) }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        for lost in app.backend.functions.lostEvents { context.note("backend", "lost trigger event: \(lost)") }
        monitor.check(context, final: true)
        try context.throwIfStopped()
    }

    /// Members `u0000@knb.org`… with every preference on and `devices` push tokens each, written
    /// by the admin SDK as their sign-ins would have left them (set-up, not judged).
    static func seedMembers(_ app: KNBApp, count: Int, devices: Int, audience: BroadcastAudience) async {
        let now = app.backend.env.clock.now
        let prefs: Value = ["adminPosts": true, "postLikes": true, "postReplies": true, "replyLikes": true, "outbid": true]
        for index in 0..<count {
            let email = "u" + String(String(index + 10_000).dropFirst()) + "@knb.org"
            audience.add(email, tokens: (0..<devices).map { KNBScenarioSupport.token(email, device: $0) })
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                let email = audience.member(index)
                let tokens = Fields(uniqueKeysWithValues: audience.tokens(of: email).map { ($0, Value.map(["platform": "iOS", "updatedAt": .timestamp(now)])) })
                group.addTask {
                    let fields: Fields = [
                        "name": .string("Member \(index)"), "email": .string(email), "totalPledged": .double(0), "isAdmin": false,
                        "notificationPrefs": prefs, "fcmTokens": .map(tokens),
                    ]
                    _ = try? await app.backend.firestore.set(DocumentPath("users", email), fields)
                }
            }
        }
    }

    /// `optOutPercent` % of the members turn announcements and reply likes off in the app; one
    /// whose change was not confirmed is judged neither way.
    static func optOut(_ app: KNBApp, audience: BroadcastAudience, context: ScenarioContext) async {
        var random = Simulation.random("admin-broadcast/opt-out")
        let percent = context.parameters[Parameter.optOutPercent]
        let chosen = (0..<audience.count).filter { _ in random.below(100) < percent }.map(audience.member)
        await withTaskGroup(of: Void.self) { group in
            for email in chosen {
                group.addTask {
                    let client = app.client(email: email, name: "Member")
                    do {
                        try await KNBScenarioSupport.persistently { try await client.setPreference("adminPosts", false) }
                        try await KNBScenarioSupport.persistently { try await client.setPreference("replyLikes", false) }
                        audience.optedOut(email)
                    } catch {
                        audience.undecided(email)
                        context.note(email, "turning notifications off failed: \(error)")
                    }
                }
            }
        }
    }

    /// `percent` % of the devices had the app uninstalled, and the platform draws those left
    /// unused for over 270 days (`fcm-token-expired`): FCM answers their tokens UNREGISTERED, and
    /// no one is there to see an announcement.
    static func uninstall(_ app: KNBApp, audience: BroadcastAudience, percent: Int) {
        var random = Simulation.random("admin-broadcast/uninstalls")
        for index in 0..<audience.count {
            for token in audience.tokens(of: audience.member(index)) where random.below(100) < percent {
                app.backend.messaging.unregister(token: token)
                audience.uninstalled(token)
            }
        }
        for member in audience.members {
            for token in audience.tokens(of: member) where !audience.isUninstalled(token) && app.backend.messaging.expiredForInactivity(token) {
                audience.uninstalled(token)
            }
        }
    }

    /// The installed devices whose token FCM replaces while the announcements go out (before the
    /// last is asked for), and when (the platform draws them: `fcm-token-rotated`).
    static func drawRotations(_ app: KNBApp, audience: BroadcastAudience, within span: Duration) -> [(member: String, token: String, offset: Duration)] {
        audience.members.flatMap { member in
            audience.tokens(of: member).compactMap { token in
                guard !audience.isUninstalled(token), let offset = app.backend.messaging.rotationOffset(of: token, within: span) else { return nil }
                return (member, token, offset)
            }
        }
    }

    /// At `at`, FCM replaces device `token`'s token and hands the app the new one, which the app
    /// handles (records it under the member, or not: `token-stored-at-sign-in`).
    static func rotate(_ member: KNBClient, of app: KNBApp, token: String, at: UInt64, audience: BroadcastAudience, context: ScenarioContext) async {
        await KNBScenarioSupport.sleep(until: at)
        guard !context.isStopped else { return }
        let new = app.backend.messaging.rotate(token)
        audience.rotated(token, to: new, at: app.backend.env.clock.now)
        context.note(member.email, "FCM replaced device token \(token) with \(new)")
        do {
            try await KNBScenarioSupport.persistently { try await member.tokenRefreshed(new) }
            audience.refreshHandled(token, at: app.backend.env.clock.now)
        } catch {
            context.note(member.email, "recording the new token failed: \(error)")
        }
    }

    /// The admin posts `count` announcements, `announcementGap` apart.
    static func announce(_ admin: KNBClient, count: Int, origin: UInt64, clock: DomainClock, log: BroadcastLog, context: ScenarioContext) async {
        let gap = UInt64(announcementGap.components.seconds) * 1_000_000_000
        for index in 0..<count {
            let at = origin + UInt64(index) * gap
            await KNBScenarioSupport.sleep(until: at)
            if context.isStopped { return }
            context.note(admin.email, "announce \(index)")
            let requested = clock.now
            do {
                let post = try await KNBScenarioSupport.persistently { try await admin.createPost("Announcement \(index)") }
                log.announced(post.id, at: clock.now, requested: requested)
            } catch {
                context.note(admin.email, "announcement \(index) failed: \(error)")
            }
            context.recordLatency("announce", user: admin.email, intendedStartNanoseconds: at)
        }
    }

    /// A member replies to the first announcement (if one was posted by then).
    static func reply(_ member: KNBClient, index: Int, at: UInt64, log: BroadcastLog, context: ScenarioContext) async {
        await KNBScenarioSupport.sleep(until: at)
        guard !context.isStopped, let first = log.announcements.first else { return }
        context.note(member.email, "reply to \(first)")
        if let reply = try? await ScenarioSupport.retrying({ try await member.reply(to: first, "Reply \(index)") }) {
            log.replied(reply.id, by: member.email)
        }
        context.recordLatency("reply", user: member.email, intendedStartNanoseconds: at)
    }

    /// A member likes one of the replies posted by then (`pick` chooses which).
    static func likeReply(_ member: KNBClient, pick: Int, at: UInt64, log: BroadcastLog, context: ScenarioContext) async {
        await KNBScenarioSupport.sleep(until: at)
        let replies = log.replies.keys.sorted()
        guard !context.isStopped, !replies.isEmpty else { return }
        let reply = replies[pick % replies.count]
        context.note(member.email, "like reply \(reply)")
        if (try? await ScenarioSupport.retrying({ try await member.like(reply) })) != nil {
            log.liked(reply, by: member.email)
        }
        context.recordLatency("likeReply", user: member.email, intendedStartNanoseconds: at)
    }
}
