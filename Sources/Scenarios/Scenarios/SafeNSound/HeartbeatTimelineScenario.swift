import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// SafeNSound over 72 virtual hours: U users with 24/48/72 h thresholds in several time zones
/// (the window starts 2026-03-06 18:00 UTC, so America/Los_Angeles and America/New_York change
/// to DST inside it), who check in on time, late (after the pre-notification), right at the
/// threshold, or not at all; who double-tap, lose the network, or pause monitoring; while
/// SendGrid answers 429 and Cloud Scheduler duplicates ticks.
public struct HeartbeatTimelineScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .heartbeatTimeline }
    /// The name `rehearse` takes.
    public let name = "heartbeat-timeline"
    /// One line for `rehearse list`.
    public let summary = "SafeNSound check-ins, pre-notifications and emails over 72 h across a DST change"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.hours,
        Parameter.missedPercent,
        Parameter.latePercent,
        Parameter.thresholdRacePercent,
        Parameter.rapidTapPercent,
        Parameter.offlinePercent,
        Parameter.pausePercent,
        Parameter.emailFailurePercent,
        Parameter.duplicateTickPercent,
        Parameter.tokenChurnPercent,
        Parameter.reinstallPercent,
        Parameter.emailOutages,
        Parameter.emailOutageMinutes,
        Parameter.retryMaxMinutes,
        Parameter.contactEditPercent,
        Parameter.rulesProbePercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["checkIn", "thresholdToEmail", "preDueToPush"]
    /// The variants it should catch.
    public let variants = SafeNSoundVariant.allCases.filter { $0 != .careful && !DailyReminderScenario.reminderVariants.contains($0) }.map(\.rawValue)
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.oneAlertPerKindPerWindow,
        Check.noDoubleSend,
        Check.noAlertAfterCheckin,
        Check.alertOnTime,
        Check.emailShowsLocalTime,
        Check.rateLimitRespected,
        Check.checkInNotRefused,
        Check.missedWindowAlerted,
        Check.preNotificationSent,
        Check.emailSent,
        Check.checkinCancelledAlert,
        Check.rateLimited,
        Check.emailRetried,
        Check.retrySkipsDeliveredContacts,
        Check.resentAfterTimeout,
        Check.dstWindowEmailed,
        Check.monitoringStaysOn,
        Check.pushTokenCurrent,
        Check.pushToReregisteredToken,
        Check.noAlertForAbandonedAccount,
        Check.abandonedAccountRetired,
        Check.emailSentAfterOutage,
        Check.emailToCurrentContacts,
        Check.emailToEditedContact,
        Check.rulesDenyForeignAccess,
        Check.ownWritesAllowed,
    ]

    /// 2026-03-06T18:00:00Z: America/Los_Angeles springs forward 40 h later (2026-03-08 10:00 UTC).
    static let startUnixSeconds: Int64 = 1_772_820_000
    static let timeZones = ["America/Los_Angeles", "America/New_York", "Europe/London", "Asia/Tokyo", "America/Los_Angeles", "Australia/Sydney"]
    static let thresholds = [24, 48, 72]
    static let leadHours = 3
    /// The allowance per delivery attempt: one sender period plus Cloud Scheduler's start jitter,
    /// plus a minute for the 30-minute check's own jitter and sends queued in one run.
    static let attemptAllowance: Duration = .seconds(2 * 60 + 10)
    static let slack: Duration = .seconds(60)

    /// How one user behaves for the whole run.
    enum Habit: String { case regular, late, thresholdRace = "threshold-race", missed }

    /// One simulated user and what the checkers need to know about them.
    struct Member: Sendable {
        let userId: String
        let thresholdHours: Int
        let timeZone: String
        let habit: Habit
        let pauses: Bool
        let contacts: [String]
        let initialHeartbeat: Timestamp
        /// When FCM stops accepting the device's token (nil: never in this run).
        let tokenInvalidAt: Timestamp?
        /// When the person reinstalls the app (their first check-in from then on signs in with a
        /// new anonymous uid, `reinstalledUserId`, and onboards again with the same email).
        let reinstallAt: Timestamp?
        /// When the person (who stops checking in) replaces their first emergency contact in
        /// Settings, shortly before their email alert is due (nil: never).
        let contactEditAt: Timestamp?
        /// The person's address (`users/{uid}.email`), the same on both accounts.
        var email: String { "person-\(userId)@example.com" }
        /// The uid the reinstalled app signs in with.
        var reinstalledUserId: String { "\(userId)-r" }
    }

    /// The device's push token as the device knows it (the oracle for the token checks).
    struct DeviceToken: Sendable {
        var current: String
        var generation = 1
        /// FCM answers UNREGISTERED for `current`; the app registers a new one at its next launch.
        var invalid = false
    }

    /// The fields of a scheduled alert the checkers use.
    struct SeenAlert: Sendable {
        let alertId: String
        let userId: String
        let kind: SafeNSoundScheduledAlert.Kind
        let windowLastHeartbeat: Timestamp
    }

    /// What user actors observed: accepted heartbeats (server times) and pauses, per user.
    final class Observed: Sendable {
        struct State {
            var accepted: [String: [Timestamp]] = [:]
            /// Users with a heartbeat accepted since the monitor's last pass.
            var acceptedSinceCheck: Set<String> = []
            var pausedAt: [String: Timestamp] = [:]
            /// Paused users in the order they paused (the monitor reads the new ones).
            var pauseOrder: [String] = []
            var cancelledSeen: Set<String> = []
            /// Per user, the device's token; per token, when the app registered it (onboarding: absent).
            var tokens: [String: DeviceToken] = [:]
            var tokenRegisteredAt: [String: Timestamp] = [:]
            /// Per person: the account uid their app uses now (absent: the onboarding uid).
            var accountOf: [String: String] = [:]
            /// Per abandoned account uid: when the reinstalled app onboarded its successor.
            var abandonedAt: [String: Timestamp] = [:]
            /// Per person: each contact list they set in Settings and when (the onboarding list is `Member.contacts`).
            var contactEdits: [String: [(at: Timestamp, contacts: [String])]] = [:]
        }
        let state = Mutex(State())
    }

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let stage = Stage(context)
        let roster = Self.roster(p, start: stage.start)
        // A reinstalled app's account is the same person: checks of its alerts use the member.
        let byId = Dictionary(uniqueKeysWithValues: roster.map { ($0.userId, $0) } + roster.filter { $0.reinstallAt != nil }.map { ($0.reinstalledUserId, $0) })
        let observed = Observed()
        observed.state.withLock { state in
            for member in roster { state.tokens[member.userId] = DeviceToken(current: "tok-\(member.userId)") }
        }
        let outages = Self.outages(p, start: stage.start, context: context)
        let (app, log) = Self.deploy(on: stage, outages: outages, members: byId)
        let monitor = Monitor()
        try await Self.onboard(roster, app: app, context: context)
        await stage.backend.scheduler.start(firstTick: stage.start + .seconds(120), until: stage.end)

        try await context.monitored(every: .seconds(600), check: {
            Self.checkState(monitor: monitor, backend: stage.backend, log: log, members: byId, observed: observed, retryMaxMinutes: p[Parameter.retryMaxMinutes], context: context)
        }) {
            await Self.live(roster, stage: stage, app: app, observed: observed)
            await stage.backend.waitUntilIdle()
        }
        await Self.checkEnd(app: app, log: log, members: roster, observed: observed, end: stage.end, outages: outages + Self.providerOutages(stage),
                            retryMax: .seconds(Int64(p[Parameter.retryMaxMinutes]) * 60), context: context)
        try context.throwIfStopped()
    }

    // MARK: Setup

    /// What every phase of a run shares: its context, the domain's clock, the backend and the window.
    struct Stage: Sendable {
        let context: ScenarioContext
        let clock: DomainClock
        let backend: Backend
        /// The window's first instant (`startUnixSeconds`) and its end (`hours` later).
        let start: Timestamp
        let end: Timestamp
        /// A domain timestamp as the simulation's virtual nanoseconds.
        let virtual: @Sendable (Timestamp) -> UInt64

        /// The clock from `startUnixSeconds` and the backend with the run's email and tick faults.
        init(_ context: ScenarioContext) {
            let p = context.parameters
            let wrapVirtual = Simulation.nowNanoseconds
            let epoch = HeartbeatTimelineScenario.startUnixSeconds * 1_000_000_000
            let clock = SimulatedEnvironment.domainClock(epochUnixNanoseconds: epoch)
            let env = SimulatedEnvironment.current(clock: clock)
            var faults = BackendFaults.default
            faults.emailRateLimitProbability = Double(p[Parameter.emailFailurePercent]) / 100
            faults.scheduleDuplicateProbability = Double(p[Parameter.duplicateTickPercent]) / 100
            self.context = context
            self.clock = clock
            backend = context.backend(faults, environment: env)
            start = clock.now
            end = start + .seconds(Int64(p[Parameter.hours]) * 3600)
            virtual = { UInt64(max(0, $0.unixNanoseconds - epoch)) + wrapVirtual }
        }
    }

    /// Draws the users: threshold, zone, habit, contacts and window, and when each one's token
    /// dies, app is reinstalled or contact is edited.
    static func roster(_ p: ScenarioParameters, start: Timestamp) -> [Member] {
        var random = Simulation.random("heartbeat/setup")
        // Token churn draws from its own stream, so the other draws (and outcomes) are unchanged.
        var tokenRandom = Simulation.random("heartbeat/tokens")
        var reinstallRandom = Simulation.random("heartbeat/reinstall")
        var contactRandom = Simulation.random("heartbeat/contacts")
        return (0..<p[Parameter.users]).map { index in
            let threshold = Self.thresholds[index % Self.thresholds.count]
            let habit = Self.habit(ofRoll: random.below(100), p)
            // The current window began up to (threshold − lead − 1 h) ago, so nothing is overdue at the start.
            let headroomSeconds = (threshold - Self.leadHours - 1) * 3600
            let offset = Int64(random.below(headroomSeconds))
            let pauses = habit == .missed && random.below(100) < p[Parameter.pausePercent]
            let contacts = (0...random.below(2)).map { "contact\($0)-u\(index)@example.com" }
            let window = (start: start, offset: offset, threshold: threshold)
            return Member(
                userId: "u\(index)", thresholdHours: threshold, timeZone: Self.timeZones[index % Self.timeZones.count],
                habit: habit, pauses: pauses, contacts: contacts, initialHeartbeat: start - .seconds(offset),
                tokenInvalidAt: Self.tokenInvalidAt(habit: habit, pauses: pauses, window: window, p, random: &tokenRandom),
                reinstallAt: Self.reinstallAt(habit: habit, start: start, p, random: &reinstallRandom),
                contactEditAt: Self.contactEditAt(habit: habit, pauses: pauses, window: window, p, random: &contactRandom))
        }
    }

    /// The habit a roll of 0..<100 gives: missed, late, threshold race or regular, by their shares.
    static func habit(ofRoll roll: Int, _ p: ScenarioParameters) -> Habit {
        if roll < p[Parameter.missedPercent] { return .missed }
        if roll < p[Parameter.missedPercent] + p[Parameter.latePercent] { return .late }
        if roll < p[Parameter.missedPercent] + p[Parameter.latePercent] + p[Parameter.thresholdRacePercent] { return .thresholdRace }
        return .regular
    }

    /// When FCM stops accepting the user's token (`tokenChurnPercent` of users), nil for never.
    static func tokenInvalidAt(
        habit: Habit, pauses: Bool, window: (start: Timestamp, offset: Int64, threshold: Int), _ p: ScenarioParameters, random: inout SimRandom
    ) -> Timestamp? {
        // Users who pause are the pause-path probe (their push must not be sent): their tokens stay valid.
        guard random.below(100) < p[Parameter.tokenChurnPercent], !pauses else { return nil }
        let start = window.start
        if habit == .missed {
            // 1 min to 3 h before the pre-notification is due: its push meets the dead token.
            let preDue = start - .seconds(window.offset) + .seconds(Int64(window.threshold - Self.leadHours) * 3600)
            return max(start, preDue - .seconds(Int64(60 + random.below(3 * 3600 - 60))))
        }
        return start + .seconds(Int64(random.below(Int(Int64(p[Parameter.hours]) * 3600))))
    }

    /// When the user reinstalls the app (`reinstallPercent` of users who check in), nil for never.
    static func reinstallAt(habit: Habit, start: Timestamp, _ p: ScenarioParameters, random: inout SimRandom) -> Timestamp? {
        guard random.below(100) < p[Parameter.reinstallPercent], habit != .missed else { return nil }
        return start + .seconds(Int64(random.below(p[Parameter.hours] * 3600)))
    }

    /// When the user replaces their first emergency contact (`contactEditPercent` of users who
    /// miss and do not pause), nil for never.
    static func contactEditAt(
        habit: Habit, pauses: Bool, window: (start: Timestamp, offset: Int64, threshold: Int), _ p: ScenarioParameters, random: inout SimRandom
    ) -> Timestamp? {
        guard random.below(100) < p[Parameter.contactEditPercent], habit == .missed, !pauses else { return nil }
        // 1–45 min before the email is due: its alert usually exists already (the check looks 30 min ahead).
        let emailDue = window.start - .seconds(window.offset) + .seconds(Int64(window.threshold) * 3600)
        return max(window.start, emailDue - .seconds(Int64(60 + random.below(44 * 60))))
    }

    /// Draws the SendGrid outages (`emailOutages` of `emailOutageMinutes` each, starting inside the window) and notes them.
    static func outages(_ p: ScenarioParameters, start: Timestamp, context: ScenarioContext) -> [(from: Timestamp, until: Timestamp)] {
        var outageRandom = Simulation.random("heartbeat/outages")
        let outages = (0..<p[Parameter.emailOutages]).map { _ -> (from: Timestamp, until: Timestamp) in
            let from = start + .seconds(Int64(outageRandom.below(p[Parameter.hours] * 3600)))
            return (from, from + .seconds(Int64(p[Parameter.emailOutageMinutes]) * 60))
        }
        for outage in outages { context.note("sendgrid", "SendGrid outage from \(outage.from) until \(outage.until)") }
        return outages
    }

    /// The world's SendGrid provider outages (a swarm draws them) as times: the check owes an email
    /// no sooner than after them, as after the scenario's own outages.
    static func providerOutages(_ stage: Stage) -> [(from: Timestamp, until: Timestamp)] {
        let elapsed = stage.clock.elapsedNanoseconds, now = stage.clock.now
        return stage.backend.outages.windows(of: .sendGrid, through: elapsed).map { window in
            (now - .nanoseconds(elapsed - window.start), now - .nanoseconds(elapsed - window.end))
        }
    }

    /// Deploys the app on the backend, sending through SendGrid's outages and the delivery log
    /// (each delivery checked as it happens); the backend follows new alerts for the monitor.
    static func deploy(
        on stage: Stage, outages: [(from: Timestamp, until: Timestamp)], members byId: [String: Member]
    ) -> (SafeNSoundApp, SafeNSoundDeliveryLog) {
        let p = stage.context.parameters
        let variant = stage.context.variant.flatMap(SafeNSoundVariant.init(rawValue:)) ?? .careful
        let configuration = SafeNSoundConfiguration(
            preNotificationLeadHours: Self.leadHours, alertRetryMaxDelay: .seconds(Int64(p[Parameter.retryMaxMinutes]) * 60), variant: variant)
        let backend = stage.backend
        let sendGrid = SendGridOutageMessenger(inner: SafeNSoundBackendMessenger(backend: backend), clock: stage.clock, outages: outages)
        let log = SafeNSoundDeliveryLog(inner: sendGrid, clock: stage.clock) { delivery in
            Self.onDelivery(delivery, backend: backend, members: byId, context: stage.context, virtual: stage.virtual)
        }
        let app = SafeNSoundApp.deployed(on: backend, configuration: configuration, messenger: log)
        backend.firestore.followInsertions("scheduled_alerts")  // the monitor reads new alerts, not all
        return (app, log)
    }

    /// Registers every member as already onboarded (their window running) and notes their settings.
    static func onboard(_ roster: [Member], app: SafeNSoundApp, context: ScenarioContext) async throws {
        for member in roster {
            let user = SafeNSoundUser(
                userId: member.userId, name: "User \(member.userId)", fcmToken: "tok-\(member.userId)",
                emergencyContactEmails: member.contacts, checkInThresholdHours: member.thresholdHours,
                lastHeartbeat: member.initialHeartbeat, timeZoneIdentifier: member.timeZone, email: member.email)
            try await app.registerUser(user)
            context.timeZone(member.userId, member.timeZone)
            context.note(member.userId, "onboarded: \(member.thresholdHours) h, \(member.timeZone), \(member.habit.rawValue)\(member.pauses ? ", pauses" : "")")
        }
    }

    // MARK: Users

    /// Runs the window's people at once: rules probes, every member's check-ins, and FCM
    /// invalidating tokens.
    static func live(_ roster: [Member], stage: Stage, app: SafeNSoundApp, observed: Observed) async {
        await withTaskGroup(of: Void.self) { group in
            Self.addRulesProbes(roster, to: &group, stage: stage, app: app)
            for member in roster {
                group.addTask {
                    await Simulation.named("user-\(member.userId)") {
                        await Self.userLoop(member, app: app, backend: stage.backend, clock: stage.clock, end: stage.end, observed: observed, context: stage.context, virtual: stage.virtual)
                    }
                }
                if let invalidAt = member.tokenInvalidAt, invalidAt < stage.end {
                    group.addTask {
                        await Simulation.named("fcm-\(member.userId)") {
                            await Self.invalidateToken(of: member, at: invalidAt, stage: stage, observed: observed)
                        }
                    }
                }
            }
        }
    }

    /// Adds a rules probe at a random time for `rulesProbePercent` of the members who never reinstall.
    static func addRulesProbes(_ roster: [Member], to group: inout TaskGroup<Void>, stage: Stage, app: SafeNSoundApp) {
        let p = stage.context.parameters
        // Rules probes draw from their own stream, so the other draws (and outcomes) are unchanged.
        var rulesRandom = Simulation.random("heartbeat/rules")
        for (index, member) in roster.enumerated() where member.reinstallAt == nil && p[Parameter.rulesProbePercent] > 0 {
            guard rulesRandom.below(100) < p[Parameter.rulesProbePercent] else { continue }
            let at = stage.start + .seconds(Int64(rulesRandom.below(p[Parameter.hours] * 3600)))
            let other = roster[(index + 1) % roster.count].userId
            group.addTask {
                await Simulation.named("rules-\(member.userId)") {
                    try? await stage.clock.sleep(until: at)
                    guard !stage.context.isStopped else { return }
                    await Self.probeRules(as: member.userId, other: other, app: app, clock: stage.clock, context: stage.context)
                }
            }
        }
    }

    /// At `invalidAt`, FCM stops accepting `member`'s current token (restored from a backup); the
    /// device learns at its next launch.
    static func invalidateToken(of member: Member, at invalidAt: Timestamp, stage: Stage, observed: Observed) async {
        try? await stage.clock.sleep(until: invalidAt)
        guard !stage.context.isStopped else { return }
        let token = observed.state.withLock { state -> String in
            state.tokens[member.userId]!.invalid = true
            return state.tokens[member.userId]!.current
        }
        stage.backend.messaging.unregister(token: token)
        stage.context.note(member.userId, "push token \(token) invalidated (restored from a backup)")
    }

    /// One person for the whole run: pauses monitoring, or (after an optional contact edit) checks
    /// in by their habit until the end, reinstalling the app when planned.
    static func userLoop(
        _ member: Member, app: SafeNSoundApp, backend: Backend, clock: DomainClock, end: Timestamp,
        observed: Observed, context: ScenarioContext, virtual: @Sendable (Timestamp) -> UInt64
    ) async {
        var random = Simulation.random("heartbeat/\(member.userId)")
        var uid = member.userId
        var device = app.client(uid: uid)
        let threshold = Duration.seconds(Int64(member.thresholdHours) * 3600)
        let lead = Duration.seconds(Int64(min(leadHours, member.thresholdHours)) * 3600)
        var lastHeartbeat = member.initialHeartbeat
        if member.pauses {
            // Pauses monitoring 1–25 min before the pre-notification is due (its alert already exists).
            let pauseAt = lastHeartbeat + threshold - lead - .seconds(Int64(60 + random.below(24 * 60)))
            await pause(member, at: pauseAt, app: app, clock: clock, observed: observed, context: context)
            return
        }
        if let editAt = member.contactEditAt, editAt < end {
            guard await editContacts(member, at: editAt, app: app, clock: clock, observed: observed, context: context) else { return }
        }
        guard member.habit != .missed else { return }
        while !context.isStopped {
            // The countdown is recomputed from lastHeartbeat each time the app comes to the foreground.
            let planned: Timestamp
            switch member.habit {
            case .regular: planned = lastHeartbeat + threshold * (Double(20 + random.below(60)) / 100)
            case .late: planned = lastHeartbeat + threshold - lead + .seconds(Int64(60 + random.below(150 * 60)))
            case .thresholdRace: planned = lastHeartbeat + threshold + .seconds(Int64(random.below(361)) - 180)
            case .missed: return
            }
            var attemptAt = max(planned, clock.now)
            while attemptAt < end, !context.isStopped {
                try? await clock.sleep(until: attemptAt)
                if let reinstallAt = member.reinstallAt, uid == member.userId, clock.now >= reinstallAt {
                    uid = member.reinstalledUserId
                    device = app.client(uid: uid)
                    await reinstall(member, app: app, backend: backend, clock: clock, observed: observed, context: context)
                }
                await launch(member, uid: uid, app: app, clock: clock, observed: observed, context: context)
                if let accepted = await checkIn(member, uid: uid, device: device, backend: backend, app: app, random: &random, observed: observed, context: context) {
                    lastHeartbeat = accepted
                    break
                }
                attemptAt = clock.now + .seconds(Int64(5 * 60 + random.below(25 * 60)))  // taps again later
            }
            context.recordLatency("checkIn", user: member.userId, intendedStartNanoseconds: min(virtual(planned), Simulation.nowNanoseconds))
            if attemptAt >= end { return }
        }
    }

    /// At `pauseAt`, the person pauses monitoring (unless the run stopped).
    private static func pause(
        _ member: Member, at pauseAt: Timestamp, app: SafeNSoundApp, clock: DomainClock, observed: Observed, context: ScenarioContext
    ) async {
        try? await clock.sleep(until: pauseAt)
        guard !context.isStopped else { return }
        try? await app.setActive(userId: member.userId, false)
        observed.state.withLock { state in
            state.pausedAt[member.userId] = clock.now
            state.pauseOrder.append(member.userId)
        }
        context.note(member.userId, "paused monitoring")
    }

    /// At `editAt`, the person replaces their first emergency contact in Settings; false if the
    /// run stopped first.
    private static func editContacts(
        _ member: Member, at editAt: Timestamp, app: SafeNSoundApp, clock: DomainClock, observed: Observed, context: ScenarioContext
    ) async -> Bool {
        try? await clock.sleep(until: editAt)
        guard !context.isStopped else { return false }
        var contacts = member.contacts
        contacts[0] = "contact0-new-\(member.userId)@example.com"
        let now = clock.now
        observed.state.withLock { $0.contactEdits[member.userId, default: []].append((now, contacts)) }
        do throws(SafeNSoundError) {
            try await app.setEmergencyContacts(userId: member.userId, contacts)
            context.note(member.userId, "emergency contact changed: \(member.contacts[0]) -> \(contacts[0])")
        } catch {
            context.note(member.userId, "emergency contact change failed: \(error)")
        }
        return true
    }

    /// The app comes to the foreground: if FCM rejected its token, it registers a new one
    /// ("Re-register FCM token on next app launch").
    static func launch(_ member: Member, uid: String, app: SafeNSoundApp, clock: DomainClock, observed: Observed, context: ScenarioContext) async {
        let now = clock.now
        let fresh = observed.state.withLock { state -> String? in
            guard var device = state.tokens[member.userId], device.invalid else { return nil }
            device.generation += 1
            device.current = "tok-\(uid)-g\(device.generation)"
            device.invalid = false
            state.tokens[member.userId] = device
            state.tokenRegisteredAt[device.current] = now
            return device.current
        }
        guard let fresh else { return }
        do throws(SafeNSoundError) {
            try await app.registerPushToken(userId: uid, token: fresh)
            context.note(member.userId, "app launch: registered push token \(fresh)")
        } catch {
            context.note(member.userId, "app launch: token registration failed: \(error)")
        }
    }

    /// The app is deleted and installed again: its anonymous uid is gone (the old push token too),
    /// so it signs in as a new anonymous user and onboards again with the same settings and email.
    static func reinstall(_ member: Member, app: SafeNSoundApp, backend: Backend, clock: DomainClock, observed: Observed, context: ScenarioContext) async {
        let now = clock.now
        let uid = member.reinstalledUserId
        let oldToken = observed.state.withLock { state -> String in
            let old = state.tokens[member.userId]!.current
            state.tokens[member.userId] = DeviceToken(current: "tok-\(uid)")
            state.tokenRegisteredAt["tok-\(uid)"] = now
            state.accountOf[member.userId] = uid
            state.abandonedAt[member.userId] = now
            return old
        }
        backend.messaging.unregister(token: oldToken)
        do throws(SafeNSoundError) {
            try await app.registerUser(SafeNSoundUser(
                userId: uid, name: "User \(member.userId)", fcmToken: "tok-\(uid)", emergencyContactEmails: member.contacts,
                checkInThresholdHours: member.thresholdHours, lastHeartbeat: now, timeZoneIdentifier: member.timeZone, email: member.email))
            context.note(member.userId, "reinstalled the app: signed in anonymously as \(uid) and onboarded again")
        } catch {
            context.note(member.userId, "reinstalled the app: onboarding as \(uid) failed: \(error)")
        }
    }

    /// One tap on the check-in button: maybe offline, maybe a double tap. Returns the accepted heartbeat time.
    static func checkIn(
        _ member: Member, uid: String, device: SafeNSoundClient, backend: Backend, app: SafeNSoundApp, random: inout SimRandom,
        observed: Observed, context: ScenarioContext
    ) async -> Timestamp? {
        let p = context.parameters
        if random.below(100) < p[Parameter.offlinePercent] {
            device.firestore.network.setOnline(false)
            _ = try? await device.checkIn(timeZone: member.timeZone)
            device.firestore.network.setOnline(true)
            context.note(member.userId, "check-in failed: \"Failed - No Internet. Your check-in did not go through.\"")
            return nil
        }
        let results: [Result<Timestamp, SafeNSoundError>]
        if random.below(100) < p[Parameter.rapidTapPercent] {
            // Two taps pipelined on one connection reach the function in the same instant.
            try? await SimClock().sleep(for: .milliseconds(20 + random.below(80)))
            let call: @Sendable () async -> Result<Timestamp, SafeNSoundError> = {
                do throws(SafeNSoundError) { return .success(try await device.checkIn(timeZone: member.timeZone, overNetwork: false)) } catch { return .failure(error) }
            }
            async let first = call()
            async let second = call()
            results = [await first, await second]
            try? await SimClock().sleep(for: .milliseconds(20 + random.below(80)))
        } else {
            do {
                results = [.success(try await device.checkIn(timeZone: member.timeZone))]
            } catch {
                results = [.failure(error)]
            }
        }
        var accepted: Timestamp?
        for result in results {
            switch result {
            case .success(let time):
                observed.state.withLock { state in
                    state.accepted[member.userId, default: []].append(time)
                    state.acceptedSinceCheck.insert(member.userId)
                }
                accepted = max(accepted ?? time, time)
            case .failure(let error):
                if case .rateLimited = error { context.sometimes(Check.rateLimited, true); continue }
                context.note(member.userId, "check-in failed: \(error)")
                context.always(Check.checkInNotRefused, !Self.refusesTheUser(error),
                               "\(member.userId)'s check-in reached the server and was refused (\(error)): their contacts will be alarmed though they tapped")
            }
        }
        guard let accepted else { return nil }
        context.note(member.userId, results.count == 2 ? "check-in (double tap)" : "check-in")
        let newlyCancelled = await app.alerts(of: uid).filter { $0.status == .cancelled && $0.windowLastHeartbeat < accepted }
        let fresh = observed.state.withLock { state in newlyCancelled.filter { state.cancelledSeen.insert($0.alertId).inserted } }
        if !fresh.isEmpty {
            context.sometimes(Check.checkinCancelledAlert, true)
            context.note(member.userId, "cancelled \(fresh.map(\.kind.rawValue).joined(separator: ", "))")
        }
        return accepted
    }

    /// Whether a check-in's error is the server refusing this caller (UNAUTHENTICATED or
    /// PERMISSION_DENIED: every later tap will be refused too), not the network, the platform's own
    /// failures or the app's answers (the double-tap rate limit).
    static func refusesTheUser(_ error: SafeNSoundError) -> Bool {
        switch BackendError.inside(error) {
        case .unauthenticated?, .permissionDenied?: true
        default: false
        }
    }

    // MARK: Checks

    /// Per delivery: on time against elapsed-time deadlines, local-time email text, latency.
    static func onDelivery(
        _ delivery: SafeNSoundDeliveryLog.Delivery, backend: Backend, members: [String: Member], context: ScenarioContext, virtual: @Sendable (Timestamp) -> UInt64
    ) {
        let message = delivery.message
        guard let member = members[message.userId] else { return }
        guard delivery.delivered else {
            context.note(member.userId, "\(message.channel.rawValue) to \(message.recipient) failed; retried by a later run")
            return
        }
        if let alert = parseAlert(id: message.alertId, backend.firestore.liveFields(DocumentPath("scheduled_alerts", message.alertId))),
           message.recipient == (message.channel == .email ? member.contacts[0] : "tok-\(member.userId)") {
            // Latency: threshold (or threshold − lead) crossed → first recipient's send started.
            let emailDue = alert.windowLastHeartbeat + .seconds(Int64(member.thresholdHours) * 3600)
            let due = alert.kind == .emailAlert ? emailDue : emailDue - .seconds(Int64(min(leadHours, member.thresholdHours)) * 3600)
            let intended = virtual(due)
            if intended <= Simulation.nowNanoseconds {
                context.recordLatency(alert.kind == .emailAlert ? "thresholdToEmail" : "preDueToPush", user: member.userId, intendedStartNanoseconds: intended)
            }
        }
        if message.channel == .email {
            context.sometimes(Check.emailSent, true)
            context.note(member.userId, "email to \(message.recipient)")
        } else {
            context.sometimes(Check.preNotificationSent, true)
            if message.recipient != "tok-\(member.userId)" { context.sometimes(Check.pushToReregisteredToken, true) }
            context.note(member.userId, "push pre-notification to \(message.recipient)")
        }
    }

    /// A `scheduled_alerts` document as the checkers read it (admin view of the live fields).
    static func parseAlert(id: String, _ fields: Fields?) -> SeenAlert? {
        guard let fields, let userId = fields["userId"]?.stringValue,
              let kind = fields["type"]?.stringValue.flatMap(SafeNSoundScheduledAlert.Kind.init(rawValue:)),
              let window = fields["windowLastHeartbeat"]?.timestampValue else { return nil }
        return SeenAlert(alertId: id, userId: userId, kind: kind, windowLastHeartbeat: window)
    }

    /// email-shows-local-time for one email: the body must contain the last check-in as the
    /// independent `LocalTimeOracle` prints it (never the domain's own formatter).
    static func emailShowsLocalTime(body: String, lastCheckIn: Timestamp, timeZone: String) -> (holds: Bool, expected: String) {
        guard let expected = LocalTimeOracle.format(lastCheckIn, timeZone: timeZone) else {
            return (false, "no reference for time zone \(timeZone)")
        }
        return (body.contains(expected), expected)
    }

    static func crossesDST(from start: Timestamp, to end: Timestamp, timeZone: String) -> Bool {
        LocalTimeOracle.isDaylight(start, timeZone: timeZone) != LocalTimeOracle.isDaylight(end, timeZone: timeZone)
    }

    /// Liveness: every active user whose window ran out well before the end got an email for it.
    static func checkEnd(
        app: SafeNSoundApp, log: SafeNSoundDeliveryLog, members: [Member], observed: Observed, end: Timestamp,
        outages: [(from: Timestamp, until: Timestamp)], retryMax: Duration, context: ScenarioContext
    ) async {
        guard !context.isStopped else { return }
        let alerts = Dictionary(await app.alerts().map { ($0.alertId, $0) }, uniquingKeysWith: { first, _ in first })
        let emailed = Set(log.deliveries.filter { $0.delivered && $0.message.channel == .email }.compactMap { delivery in
            alerts[delivery.message.alertId].map { "\($0.userId)|\($0.windowLastHeartbeat.unixNanoseconds)" }
        })
        let (paused, tokens, accountOf, abandonedAt) = observed.state.withLock { ($0.pausedAt, $0.tokens, $0.accountOf, $0.abandonedAt) }
        for member in members {
            if let abandoned = abandonedAt[member.userId], let old = await app.user(member.userId) {
                context.always(Check.abandonedAccountRetired, !old.isActive,
                               "\(member.userId) reinstalled the app at \(abandoned) and checks in as \(member.reinstalledUserId), yet the old account is still active")
                // The monitor judges each of the old account's sends as it happens; one observation per
                // reinstall here, so an account that (rightly) never alerted again still counts as
                // checked (a sweep fails a check no seed evaluated).
                let late = log.deliveries.first { $0.message.userId == member.userId && $0.startedAt > abandoned + attemptAllowance }
                context.always(Check.noAlertForAbandonedAccount, late == nil,
                               "abandoned account \(member.userId) sent \(late.map { "\($0.message.channel) to \($0.message.recipient) at \($0.startedAt)" } ?? "-"), though the person reinstalled at \(abandoned)")
            }
            let uid = accountOf[member.userId] ?? member.userId
            guard let user = await app.user(uid) else { continue }
            // Only the user turns monitoring off (the scenario's own record, not the app's flag).
            context.always(Check.monitoringStaysOn, paused[member.userId] != nil || user.isActive,
                           "\(uid) never paused monitoring, yet isActive is false at the end: their contacts get no email")
            if let device = tokens[member.userId] {
                let allowed = device.invalid ? [device.current, ""] : [device.current]
                context.always(Check.pushTokenCurrent, allowed.contains(user.fcmToken),
                               "\(uid)'s device holds push token \(device.current)\(device.invalid ? " (invalid)" : ""), users/\(uid).fcmToken is \"\(user.fcmToken)\"")
            }
            guard paused[member.userId] == nil else { continue }
            let due = user.lastHeartbeat + .seconds(Int64(member.thresholdHours) * 3600)
            // The email is owed 30 min after the threshold, or, when a SendGrid outage overlaps that
            // half hour, one longest backoff after the outage ends (repeated for back-to-back outages).
            var owedBy = due + .seconds(30 * 60)
            while let outage = outages.first(where: { $0.from < owedBy && $0.until > due && $0.until + retryMax + .seconds(30 * 60) > owedBy }) {
                owedBy = outage.until + retryMax + .seconds(30 * 60)
            }
            guard owedBy <= end else { continue }
            // An email SendGrid refused shortly before the end is still being retried (a drawn world
            // may refuse most sends): owed only when the last refusal left a longest backoff and
            // half an hour before the end.
            let lastRefusal = log.deliveries.filter { !$0.delivered && $0.message.channel == .email && $0.message.userId == uid }.map(\.startedAt).max()
            if let lastRefusal, lastRefusal + retryMax + .seconds(30 * 60) > end { continue }
            context.eventually(Check.missedWindowAlerted, emailed.contains("\(uid)|\(user.lastHeartbeat.unixNanoseconds)"),
                               "\(uid) last checked in at \(user.lastHeartbeat); threshold passed at \(due) but no email went out")
        }
    }
}
