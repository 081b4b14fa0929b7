import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// SafeNSound's daily check-in reminder over a window of a few days around one of the 2026 DST
/// changes (Los Angeles, London and Sydney, spring forward and fall back; Tokyo has none): users
/// with reminder times in the hour the change skips or repeats, who turn the reminder off and on,
/// change its time and check in, while `sendDailyReminders` runs every few minutes under Cloud
/// Scheduler's jitter and duplicate ticks. Each reminder is judged against the users' own record
/// of their settings and check-ins and a table of the zones' UTC offsets (`ReminderOracle`).
public struct DailyReminderScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .dailyReminder }
    /// The name `rehearse` takes.
    public let name = "daily-reminder"
    /// One line for `rehearse list`.
    public let summary = "SafeNSound daily check-in reminders at the user's local time across a DST change"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users, Parameter.days, Parameter.transition, Parameter.intervalMinutes, Parameter.catchUpMinutes,
        Parameter.enabledPercent, Parameter.dstEdgePercent, Parameter.togglePercent, Parameter.timeChangePercent,
        Parameter.checkInPercent, Parameter.skipIfCheckedIn,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["reminder", "settings"]
    /// The SafeNSound variants that get the daily reminder wrong (heartbeat-timeline does not run them).
    static let reminderVariants: [SafeNSoundVariant] = [.reminderEvery24h, .reminderUTCTime, .reminderLocalClockMatch, .reminderQueryFirstPage]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants(Self.reminderVariants)
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.atLocalTime, Check.onePerLocalDay, Check.noneWhenDisabled, Check.noneAfterCheckIn, Check.everyEnabledDay,
        Check.reminderSent, Check.dstEdgeReminder, Check.skippedTimeReminder, Check.repeatedTimeReminder,
        Check.changedTimeReminder, Check.skippedAfterCheckIn,
    ]

    /// One of the 2026 DST changes a run's window spans.
    struct Transition: Sendable {
        let zone: String
        /// The UTC instant of the change.
        let unixSeconds: Int64
        /// Spring forward (an hour skipped) or fall back (an hour repeated).
        let springForward: Bool
        /// The local hour the change skips or repeats.
        let edgeHour: Int
    }

    /// The six changes, in `transition` parameter order (spring 1-3, fall 4-6).
    static let transitions: [Transition] = [
        Transition(zone: "America/Los_Angeles", unixSeconds: 1_772_964_000, springForward: true, edgeHour: 2),
        Transition(zone: "Europe/London", unixSeconds: 1_774_746_000, springForward: true, edgeHour: 1),
        Transition(zone: "Australia/Sydney", unixSeconds: 1_791_043_200, springForward: true, edgeHour: 2),
        Transition(zone: "Australia/Sydney", unixSeconds: 1_775_318_400, springForward: false, edgeHour: 2),
        Transition(zone: "Europe/London", unixSeconds: 1_792_890_000, springForward: false, edgeHour: 1),
        Transition(zone: "America/Los_Angeles", unixSeconds: 1_793_523_600, springForward: false, edgeHour: 1),
    ]
    /// The zones users live in (odd-numbered users cycle through them).
    static let zones = ["America/Los_Angeles", "Europe/London", "Asia/Tokyo", "Australia/Sydney"]
    /// How long before a reminder its decision may have been taken (the claim's read; send follows at once).
    static let decisionSlack: Int64 = 60 * 1_000_000_000

    /// One thing a user does, at a planned instant.
    enum Action: Sendable {
        case checkIn
        case setReminder(enabled: Bool?, time: SafeNSoundReminderTime?)
    }

    /// One simulated user and what the checkers need about them.
    struct Member: Sendable {
        let userId: String
        let zone: String
        let initialHeartbeat: Timestamp
        let history: ReminderSettingsHistory
        let plan: [(at: Timestamp, action: Action)]
    }

    /// What the users observed of their check-ins (domain-clock nanoseconds).
    final class Observed: Sendable {
        struct State {
            /// Accepted check-ins (the server's time), per user.
            var accepted: [String: [Int64]] = [:]
            /// Check-in calls that failed without an answer: a check-in may have landed in [start, end].
            var uncertain: [String: [(start: Int64, end: Int64)]] = [:]
            /// Reminder pushes FCM refused, per user (when the send started).
            var failedPushes: [String: [Int64]] = [:]
        }
        let state = Mutex(State())
    }

    /// Per user, the local days (oracle days) that got a reminder and when.
    final class Reminded: Sendable {
        let days = Mutex<[String: [Int64: [Int64]]]>([:])
    }

    /// When `sendDailyReminders` runs (domain-clock nanoseconds): Cloud Scheduler's ticks every
    /// `interval` from `first` on, each run starting up to `jitter` after its tick.
    struct Ticks: Sendable {
        let first: Int64
        let interval: Int64
        let jitter: Int64

        /// Whether the run of the first tick after `instant` starts before `deadline` whatever its jitter.
        func runStarts(after instant: Int64, before deadline: Int64) -> Bool {
            let next = instant < first ? first : first + (LocalTimeOracle.floorDiv(instant - first, interval) + 1) * interval
            return next + jitter < deadline
        }
    }

    /// Runs one seed: onboarding, the users' plans under the scheduler, then the end checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let variant = ScenarioSupport.variant(context, SafeNSoundVariant.self)
        var random = Simulation.random("reminder/setup")
        let transition = p[Parameter.transition] == 0 ? Self.transitions[random.below(Self.transitions.count)] : Self.transitions[p[Parameter.transition] - 1]
        let startSeconds = (transition.unixSeconds - 36 * 3600) / 3600 * 3600
        let epoch = startSeconds * 1_000_000_000
        let clock = SimulatedEnvironment.domainClock(epochUnixNanoseconds: epoch)
        let env = SimulatedEnvironment.current(clock: clock)
        let backend = context.backend(.default, environment: env)
        let start = clock.now
        let end = start + .seconds(Int64(p[Parameter.days]) * 86_400)
        let interval = Duration.seconds(Int64(p[Parameter.intervalMinutes]) * 60)
        let catchUp = Int64(p[Parameter.catchUpMinutes]) * 60 * 1_000_000_000
        let wrapVirtual = Simulation.nowNanoseconds
        let virtual: @Sendable (Int64) -> UInt64 = { UInt64(max(0, $0 - epoch)) + wrapVirtual }
        context.note("scheduler", "window from \(ReminderOracle.describe(epoch, transition.zone)) for \(p[Parameter.days]) days: \(transition.zone) \(transition.springForward ? "springs forward" : "falls back") at \(ReminderOracle.describe(transition.unixSeconds * 1_000_000_000, transition.zone))")

        let configuration = Self.configuration(variant: variant, parameters: p, interval: interval, catchUp: catchUp)
        let roster = (0..<p[Parameter.users]).map { index in
            Self.member(index, transition: transition, start: start, end: end, parameters: p, setupRandom: &random)
        }
        let byId = Dictionary(uniqueKeysWithValues: roster.map { ($0.userId, $0) })
        let observed = Observed(), reminded = Reminded()
        let log = SafeNSoundDeliveryLog(inner: SafeNSoundBackendMessenger(backend: backend), clock: clock) { delivery in
            guard delivery.message.purpose == .dailyReminder, let member = byId[delivery.message.userId] else { return }
            guard delivery.delivered else {
                observed.state.withLock { $0.failedPushes[member.userId, default: []].append(delivery.startedAt.unixNanoseconds) }
                context.note(member.userId, "reminder push failed (FCM); a later run retries within the catch-up")
                return
            }
            Self.judge(delivery, member: member, catchUp: catchUp, observed: observed, reminded: reminded, backend: backend, context: context, virtual: virtual)
        }
        let app = SafeNSoundApp.deployed(on: backend, configuration: configuration, messenger: log)
        try await Self.onboard(roster, app: app, context: context)
        await backend.scheduler.start(firstTick: start + interval, until: end)
        await withTaskGroup(of: Void.self) { group in
            for member in roster {
                group.addTask {
                    await Simulation.named("user-\(member.userId)") {
                        await Self.userLoop(member, app: app, clock: clock, observed: observed, context: context)
                    }
                }
            }
        }
        await backend.waitUntilIdle()
        guard !context.isStopped else { try context.throwIfStopped(); return }
        let ticks = Ticks(first: (start + interval).unixNanoseconds, interval: interval.nanoseconds, jitter: backend.faults.scheduleStartJitterMax.nanoseconds)
        let stops = ScenarioSupport.terminationTimes(backend, function: SafeNSoundApp.sendDailyRemindersName).map(\.unixNanoseconds)
        Self.checkEveryDay(roster, start: start, end: end, catchUp: catchUp, ticks: ticks, stops: stops, lease: configuration.alertClaimLease.nanoseconds,
                           observed: observed, reminded: reminded, skipIfCheckedIn: p[Parameter.skipIfCheckedIn] == 1, context: context)
        try context.throwIfStopped()
    }

    /// The design's configuration with the scenario's reminder interval, catch-up and skip rule.
    private static func configuration(
        variant: SafeNSoundVariant, parameters p: ScenarioParameters, interval: Duration, catchUp: Int64
    ) -> SafeNSoundConfiguration {
        var configuration = SafeNSoundConfiguration(variant: variant)
        configuration.dailyReminderInterval = interval
        configuration.dailyReminderCatchUp = .nanoseconds(catchUp)
        configuration.dailyReminderSkipsAfterCheckIn = p[Parameter.skipIfCheckedIn] == 1
        return configuration
    }

    /// User `index`: their zone, reminder settings and plan from their own stream, their initial
    /// heartbeat from the set-up stream.
    private static func member(
        _ index: Int, transition: Transition, start: Timestamp, end: Timestamp, parameters p: ScenarioParameters, setupRandom random: inout SimRandom
    ) -> Member {
        var userRandom = Simulation.random("reminder/user-\(index)")
        let zone = index % 2 == 0 ? transition.zone : Self.zones[(index / 2) % Self.zones.count]
        let pickTime = { (random: inout SimRandom) -> SafeNSoundReminderTime in
            let edge = zone == transition.zone && random.below(100) < p[Parameter.dstEdgePercent]
            return SafeNSoundReminderTime(hour: edge ? transition.edgeHour : 1 + random.below(22), minute: random.below(60))!
        }
        let enabled = userRandom.below(100) < p[Parameter.enabledPercent]
        let time = pickTime(&userRandom)
        var plan: [(at: Timestamp, action: Action)] = []
        for day in 0..<p[Parameter.days] where userRandom.below(100) < p[Parameter.checkInPercent] {
            plan.append((start + .seconds(Int64(day) * 86_400 + Int64(userRandom.below(86_400))), .checkIn))
        }
        let windowSeconds = p[Parameter.days] * 86_400
        if userRandom.below(100) < p[Parameter.togglePercent] {
            let off = start + .seconds(Int64(userRandom.below(windowSeconds)))
            plan.append((off, .setReminder(enabled: false, time: nil)))
            plan.append((off + .seconds(Int64(2 * 3600 + userRandom.below(34 * 3600))), .setReminder(enabled: true, time: nil)))
        }
        if userRandom.below(100) < p[Parameter.timeChangePercent] {
            plan.append((start + .seconds(Int64(userRandom.below(windowSeconds))), .setReminder(enabled: nil, time: pickTime(&userRandom))))
        }
        let ordered = plan.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element).filter { $0.at < end }
        return Member(
            userId: "u\(index)", zone: zone, initialHeartbeat: start - .seconds(Int64(random.below(12 * 3600))),
            history: ReminderSettingsHistory(enabled: enabled, time: time), plan: ordered)
    }

    /// Registers every member with their initial reminder settings, one after another.
    private static func onboard(_ roster: [Member], app: SafeNSoundApp, context: ScenarioContext) async throws {
        for member in roster {
            var user = SafeNSoundUser(
                userId: member.userId, name: "User \(member.userId)", fcmToken: "tok-\(member.userId)",
                emergencyContactEmails: ["contact-\(member.userId)@example.com"], checkInThresholdHours: 72,
                lastHeartbeat: member.initialHeartbeat, timeZoneIdentifier: member.zone)
            let initial = member.history.initial
            user.dailyReminderEnabled = initial.enabled
            user.dailyReminderTime = initial.time
            try await app.registerUser(user)
            context.timeZone(member.userId, member.zone)
            context.note(member.userId, "onboarded: \(member.zone), reminder \(initial.enabled ? "on" : "off") at \(initial.time.map(\.description) ?? "-")")
        }
    }

    // MARK: Users

    static func userLoop(_ member: Member, app: SafeNSoundApp, clock: DomainClock, observed: Observed, context: ScenarioContext) async {
        let device = app.client(uid: member.userId)
        for (at, action) in member.plan {
            try? await clock.sleep(until: at)
            if context.isStopped { return }
            switch action {
            case .checkIn:
                let sent = clock.now.unixNanoseconds
                do {
                    let accepted = try await device.checkIn(timeZone: member.zone)
                    observed.state.withLock { $0.accepted[member.userId, default: []].append(accepted.unixNanoseconds) }
                    context.note(member.userId, "check-in")
                } catch {
                    let now = clock.now.unixNanoseconds
                    observed.state.withLock { $0.uncertain[member.userId, default: []].append((sent, now)) }
                    context.note(member.userId, "check-in failed: \(error)")
                }
            case .setReminder(let enabled, let time):
                let latest = member.history.latest
                let newEnabled = enabled ?? latest.enabled, newTime = time ?? latest.time
                let sent = clock.now, sentVirtual = Simulation.nowNanoseconds
                let position = member.history.begin(at: sent.unixNanoseconds, enabled: newEnabled, time: newTime)
                context.note(member.userId, time != nil ? "reminder time \(newTime.map(\.description) ?? "-")" : "reminder \(newEnabled ? "on" : "off")")
                _ = try? await ScenarioSupport.retrying { try await device.setDailyReminder(enabled: newEnabled, time: newTime) }
                // Settle what the server holds by reading the own document back (unresolved: stays in flight).
                var settled: DocumentSnapshot?
                for _ in 0..<10 where settled == nil {
                    settled = try? await ScenarioSupport.retrying { try await device.firestore.get(DocumentPath("users", member.userId)) }
                }
                if let settled {
                    member.history.finish(position, at: clock.now.unixNanoseconds, enabled: settled["dailyReminderEnabled"]?.boolValue ?? false,
                                          time: SafeNSoundFirestoreStore.reminderTime(settled["dailyReminderTime"]))
                }
                context.recordLatency("settings", user: member.userId, intendedStartNanoseconds: sentVirtual)
            }
        }
    }

    // MARK: Checks

    /// One reminder's local day and time: for every settings state possibly in effect during the
    /// minute before it (when the sender decided), the oracle's fire instants of the local day it was
    /// sent on and the day before; it matches one whose [fire, fire + catch-up + a minute] holds it.
    static func judge(
        _ delivery: SafeNSoundDeliveryLog.Delivery, member: Member, catchUp: Int64, observed: Observed, reminded: Reminded, backend: Backend,
        context: ScenarioContext, virtual: @Sendable (Int64) -> UInt64
    ) {
        let uid = member.userId, zone = member.zone
        let sent = delivery.startedAt.unixNanoseconds
        let sentSeconds = LocalTimeOracle.floorDiv(sent, 1_000_000_000)
        let states = member.history.possible(from: sent - decisionSlack, to: sent)
        let enabled = states.filter { $0.enabled && $0.time != nil }
        context.note(uid, "reminder pushed to \(delivery.message.recipient)")
        context.always(Check.noneWhenDisabled, !enabled.isEmpty,
                       "\(uid) got a reminder at \(ReminderOracle.describe(sent, zone)) though the reminder was off for the minute before it")
        guard !enabled.isEmpty else { return }
        let today = ReminderOracle.localDay(sentSeconds, zone)
        var match: (day: Int64, fire: Int64, kind: ReminderOracle.Kind, state: ReminderSettingsHistory.Entry)?
        for state in enabled {
            for day in [today - 1, today] {
                let fire = ReminderOracle.fire(day: day, minuteOfDay: state.time!.minuteOfDay, zone)
                let fireNanoseconds = fire.unixSeconds * 1_000_000_000
                if sent >= fireNanoseconds && sent <= fireNanoseconds + catchUp + decisionSlack { match = (day, fireNanoseconds, fire.kind, state) }
            }
        }
        let expected = enabled.map { state -> String in
            let fire = ReminderOracle.fire(day: today, minuteOfDay: state.time!.minuteOfDay, zone)
            return "\(state.time!) = \(ReminderOracle.describe(fire.unixSeconds * 1_000_000_000, zone))"
        }.joined(separator: " or ")
        context.always(Check.atLocalTime, match != nil,
                       "\(uid) (\(zone)) got a reminder at \(ReminderOracle.describe(sent, zone)), not within \(catchUp / 60_000_000_000) min after their reminder time that day or the day before (that day: \(expected))")
        guard let match else { return }
        let earlier = reminded.days.withLock { days -> [Int64] in
            defer { days[uid, default: [:]][match.day, default: []].append(sent) }
            return days[uid]?[match.day] ?? []
        }
        // A run the platform terminated after its push and before it recorded it leaves the day
        // unhandled: a later run pushes again (at least once, as the design chooses).
        let resent = earlier.last.map { last in
            ScenarioSupport.terminationTimes(backend, function: SafeNSoundApp.sendDailyRemindersName).contains { $0.unixNanoseconds > last && $0.unixNanoseconds < sent }
        } ?? false
        context.always(Check.onePerLocalDay, earlier.isEmpty || (earlier.count == 1 && resent),
                       "\(uid) (\(zone)) got a second reminder for \(ReminderOracle.dayText(match.day)) at \(ReminderOracle.describe(sent, zone)); the first went at \(earlier.map { ReminderOracle.describe($0, zone) }.joined(separator: ", "))")
        if context.parameters[Parameter.skipIfCheckedIn] == 1 {
            let midnight = ReminderOracle.midnight(day: match.day, zone) * 1_000_000_000
            let checkIns = observed.state.withLock { $0.accepted[uid] ?? [] } + [member.initialHeartbeat.unixNanoseconds]
            let before = checkIns.filter { $0 >= midnight && $0 < sent - decisionSlack }.min()
            context.always(Check.noneAfterCheckIn, before == nil,
                           "\(uid) got the reminder for \(ReminderOracle.dayText(match.day)) at \(ReminderOracle.describe(sent, zone)), though they checked in that day at \(before.map { ReminderOracle.describe($0, zone) } ?? "-")")
        }
        context.recordLatency("reminder", user: uid, intendedStartNanoseconds: min(virtual(match.fire), Simulation.nowNanoseconds))
        context.sometimes(Check.reminderSent, true)
        context.sometimes(Check.dstEdgeReminder, match.kind != .normal)
        context.sometimes(Check.skippedTimeReminder, match.kind == .skipped)
        context.sometimes(Check.repeatedTimeReminder, match.kind == .repeated)
        context.sometimes(Check.changedTimeReminder, match.state.time != member.history.initial.time)
    }

    /// Once idle: every local day whose settings never changed, with the reminder on and, with
    /// skipIfCheckedIn, no check-in (or unanswered check-in call) from its midnight to the end of
    /// its catch-up, wholly inside the window, got a reminder, unless FCM refused a push within its
    /// catch-up, or the platform terminated a run then (`stops`), and no run of a later tick
    /// (`ticks`) surely started before the catch-up ended (past the claim's `lease`, for a stop).
    static func checkEveryDay(
        _ members: [Member], start: Timestamp, end: Timestamp, catchUp: Int64, ticks: Ticks, stops: [Int64], lease: Int64,
        observed: Observed, reminded: Reminded, skipIfCheckedIn: Bool, context: ScenarioContext
    ) {
        let (accepted, uncertain, failedPushes) = observed.state.withLock { ($0.accepted, $0.uncertain, $0.failedPushes) }
        let days = reminded.days.withLock { $0 }
        for member in members {
            let zone = member.zone, uid = member.userId
            let first = ReminderOracle.localDay(LocalTimeOracle.floorDiv(start.unixNanoseconds, 1_000_000_000), zone)
            let last = ReminderOracle.localDay(LocalTimeOracle.floorDiv(end.unixNanoseconds, 1_000_000_000), zone)
            let checkIns = (accepted[uid] ?? []) + [member.initialHeartbeat.unixNanoseconds]
            for day in first...last {
                let midnight = ReminderOracle.midnight(day: day, zone) * 1_000_000_000
                let nextMidnight = ReminderOracle.midnight(day: day + 1, zone) * 1_000_000_000
                let states = member.history.possible(from: midnight - decisionSlack, to: nextMidnight)
                guard states.count == 1, let state = states.first, state.enabled, let time = state.time else { continue }
                let fire = ReminderOracle.fire(day: day, minuteOfDay: time.minuteOfDay, zone).unixSeconds * 1_000_000_000
                let closes = fire + catchUp + decisionSlack
                guard fire >= start.unixNanoseconds, closes <= end.unixNanoseconds else { continue }
                let got = days[uid]?[day] ?? []
                if skipIfCheckedIn {
                    if (uncertain[uid] ?? []).contains(where: { $0.end >= midnight && $0.start <= closes }) { continue }
                    if checkIns.contains(where: { $0 >= midnight && $0 <= closes }) {
                        if got.isEmpty && checkIns.contains(where: { $0 >= midnight && $0 < fire }) { context.sometimes(Check.skippedAfterCheckIn, true) }
                        continue
                    }
                }
                // FCM refused the last attempt a run could make within the catch-up: the design drops a
                // reminder it cannot send in time (docs/domain.md) rather than send it at another hour.
                if got.isEmpty, let refused = (failedPushes[uid] ?? []).filter({ $0 >= fire && $0 <= closes }).max(),
                   !ticks.runStarts(after: refused, before: fire + catchUp) { continue }
                // A run the platform terminated within the catch-up (after its claim, maybe): no later
                // run surely starts past the claim's lease before the catch-up ends.
                if got.isEmpty, let stopped = stops.filter({ $0 >= fire - lease && $0 <= closes }).max(),
                   !ticks.runStarts(after: stopped + lease, before: fire + catchUp) { continue }
                context.eventually(Check.everyEnabledDay, !got.isEmpty,
                                   "\(uid) (\(zone)) had the reminder on at \(time) all of \(ReminderOracle.dayText(day)) and did not check in, but got no reminder (due \(ReminderOracle.describe(fire, zone)))")
            }
        }
    }
}
