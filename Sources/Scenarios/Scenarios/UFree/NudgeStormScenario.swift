import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// UFree nudges: friends set their availability (today, in their own time zone, and a shared
/// plan day), then tap Nudge rapidly (several taps a moment apart) and press Nudge All.
public struct NudgeStormScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .nudgeStorm }
    /// The name `rehearse` takes.
    public let name = "nudge-storm"
    /// One line for `rehearse list`.
    public let summary = "UFree rapid nudge taps and Nudge All on a plan day, across time zones"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.actionsPerUser,
        Parameter.durationSeconds,
        Parameter.tapsMax,
        Parameter.tapGapMaxMilliseconds,
        Parameter.nudgeAllPercent,
        Parameter.freePercent,
        Parameter.inboxPercent,
        Parameter.markAllPercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["nudgeAll", "nudgeBurst"]
    /// The variants it should catch.
    public let variants = [
        UFreeVariant.clientTapGuardOnly.rawValue, UFreeVariant.utcToday.rawValue, UFreeVariant.nudgeGuardReentrant.rawValue,
        UFreeVariant.badgeCountsEvents.rawValue, UFreeVariant.nudgeCooldownHalf.rawValue, UFreeVariant.inboxSyncedFromEcho.rawValue,
        UFreeVariant.markAllReadByQuery.rawValue,
    ]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.localTodayAccepted,
        Check.oneNudgePerCooldown,
        Check.nudgeAllOnlyFree,
        Check.oneNotificationPerNudge,
        Check.rapidTapRefused,
        Check.nudgeAllSent,
        Check.inboxMatchesServer,
        Check.upToDateIsSaved,
        Check.settlesUpToDate,
        Check.savedReadStaysRead,
        Check.readShownSyncing,
        Check.readOnOtherDevice,
        Check.readOnlyWhatWasShown,
        Check.markedAllRead,
    ]

    /// Counts per "sender>recipient" key, shared by the user tasks.
    final class Tally: Sendable {
        private let state = Mutex<[String: Int]>([:])
        func add(_ key: String) { state.withLock { $0[key, default: 0] += 1 } }
        var counts: [String: Int] { state.withLock { $0 } }
    }

    /// The plan day everyone sets and Nudge All targets (after every user's local today).
    static let planDay = UFreeDay(year: 2026, month: 1, day: 14)
    static let cooldownSeconds = 60

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = UFreeScenarioSupport.makeApp(context, nudgeCooldownSeconds: Self.cooldownSeconds)
        let users = await UFreeScenarioSupport.signUp(app, count: p[Parameter.users])
        await Self.befriendAll(users)
        let freeOnPlanDay = await Self.setAvailability(app, users: users, context: context)
        try context.throwIfStopped()
        let delivered = Tally()  // "sender>recipient": nudges whose call returned success
        let attempted = Tally()  // calls that reached the backend (not refused on the device)
        let taps = InboxTaps()
        let inboxes = Self.openInboxes(app, users: users, taps: taps, context: context)
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(200), check: { Self.checkState(app, users: users, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (number, inbox) in inboxes.enumerated() {
                    group.addTask {
                        await Simulation.named("inbox-\(inbox.device)") {
                            await Self.reader(inbox, number: number, until: origin + UInt64(p[Parameter.durationSeconds] + 10) * 1_000_000_000, taps: taps, context: context)
                        }
                    }
                }
                for index in users.indices {
                    group.addTask {
                        await Simulation.named("nudger-\(index)") {
                            await Self.userLoop(app, users: users, index: index, free: freeOnPlanDay, origin: origin,
                                                delivered: delivered, attempted: attempted, context: context)
                        }
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        Self.checkInboxes(app, inboxes, taps: taps, context: context)
        for inbox in inboxes { inbox.close() }
        Self.checkNotificationCounts(app, users: users, delivered: delivered, attempted: attempted, context: context)
        try context.throwIfStopped()
    }

    /// Makes every pair of users friends: one sends the request, the other accepts it.
    private static func befriendAll(_ users: [UFreeScenarioSupport.User]) async {
        for (a, first) in users.enumerated() {
            for second in users[(a + 1)...] {
                _ = try? await ScenarioSupport.retrying { try await first.client.sendFriendRequest(to: second.uid) }
                _ = try? await ScenarioSupport.retrying { try await second.client.respondToFriendRequest(from: first.uid, accept: true) }
            }
        }
    }

    /// Each user sets today (in their own zone) busy, which local-today-accepted checks, and a
    /// drawn status on the plan day; returns who the backend stored as free on the plan day.
    private static func setAvailability(_ app: UFreeApp, users: [UFreeScenarioSupport.User], context: ScenarioContext) async -> Set<String> {
        let p = context.parameters
        var random = Simulation.random("nudge/setup")
        var free: Set<String> = []
        for user in users {
            let today = UFreeDay.containing(app.backend.env.clock.now, timeZoneIdentifier: user.timeZone)
            do {
                try await ScenarioSupport.retrying { try await user.client.setAvailability(day: today, status: .busy) }
            } catch UFreeError.cannotUpdatePastDate(let day, let appToday) {
                context.always(Check.localTodayAccepted, false, "\(user.uid) in \(user.timeZone) could not set today \(day): app says today is \(appToday)")
            } catch { context.note(user.uid, "set today failed: \(error)") }
            context.always(Check.localTodayAccepted, true, "")
            let isFree = random.below(100) < p[Parameter.freePercent]
            let status: UFreeAvailabilityStatus = isFree ? .free : [.busy, .morningOnly, .eveningOnly][random.below(3)]
            do {
                try await ScenarioSupport.retrying { try await user.client.setAvailability(day: Self.planDay, status: status) }
            } catch { context.note(user.uid, "set plan day failed: \(error)") }
            // Who is free is what the backend stored: a set that timed out may have been applied.
            let stored = await app.backend.firestore.get(DocumentPath("users", user.uid).child("availability", Self.planDay.key))
            if stored["status"] == .int(Int64(UFreeAvailabilityStatus.free.rawValue)) { free.insert(user.uid) }
        }
        return free
    }

    /// Inboxes: a phone and a tablet per listening user, each with its own listener checking its screen.
    private static func openInboxes(
        _ app: UFreeApp, users: [UFreeScenarioSupport.User], taps: InboxTaps, context: ScenarioContext
    ) -> [UFreeInbox] {
        let p = context.parameters
        var opened: [UFreeInbox] = []
        for (index, user) in users.enumerated() {
            var draw = Simulation.random("nudge/inbox-\(index)")
            guard draw.below(100) < p[Parameter.inboxPercent] else { continue }
            for device in ["phone", "tablet"] {
                let inbox = app.inbox(userId: user.uid, device: "\(user.uid)/\(device)")
                inbox.open { inbox in Self.checkScreen(app, inbox, taps: taps, context: context) }
                opened.append(inbox)
            }
        }
        return opened
    }

    /// one-notification-per-nudge: each recipient holds at least the nudges reported delivered
    /// and at most those that reached the backend, per sender.
    private static func checkNotificationCounts(
        _ app: UFreeApp, users: [UFreeScenarioSupport.User], delivered: Tally, attempted: Tally, context: ScenarioContext
    ) {
        let sent = delivered.counts, tried = attempted.counts
        for recipient in users {
            let nudges = app.backend.firestore.query("users/\(recipient.uid)/notifications") { $0["type"] == "nudge" }
            for sender in users where sender.uid != recipient.uid {
                let key = "\(sender.uid)>\(recipient.uid)"
                let count = nudges.count { $0["senderId"]?.stringValue == sender.uid }
                let low = sent[key, default: 0], high = tried[key, default: 0]
                context.eventually(Check.oneNotificationPerNudge, count >= low && count <= high,
                                   "\(recipient.uid) has \(count) nudge(s) from \(sender.uid); \(low) reported delivered, \(high) reached the backend")
            }
        }
    }

    /// What one nudge call ended in, counted per "sender>recipient" key.
    typealias NudgeRecorder = @Sendable (String, Result<Void, UFreeError>) -> Void

    /// One user's session: at each arrival a Nudge All on the plan day, or a burst of taps on
    /// Nudge for one friend.
    static func userLoop(
        _ app: UFreeApp, users: [UFreeScenarioSupport.User], index: Int, free: Set<String>, origin: UInt64,
        delivered: Tally, attempted: Tally, context: ScenarioContext
    ) async {
        let p = context.parameters
        var random = Simulation.random("nudge/user-\(index)")
        let me = users[index]
        let record: NudgeRecorder = { friend, result in
            let key = "\(me.uid)>\(friend)"
            switch result {
            case .success: delivered.add(key); attempted.add(key)
            case .failure(.nudgeInFlight): context.sometimes(Check.rapidTapRefused, true)
            case .failure(.nudgeTooSoon): context.sometimes(Check.rapidTapRefused, true); attempted.add(key)
            case .failure: attempted.add(key)  // may have committed before the response was lost
            }
        }
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            if random.below(100) < p[Parameter.nudgeAllPercent] {
                await nudgeAll(me, free: free, record: record, attempted: attempted, context: context)
                context.recordLatency("nudgeAll", user: me.uid, intendedStartNanoseconds: arrival)
                continue
            }
            var friendIndex = random.below(users.count - 1)
            if friendIndex >= index { friendIndex += 1 }
            let friend = users[friendIndex].uid
            let taps = 1 + random.below(p[Parameter.tapsMax])
            let gaps = (0..<taps).map { _ in random.below(p[Parameter.tapGapMaxMilliseconds] + 1) }
            context.note(me.uid, "nudge \(friend) ×\(taps)")
            await nudgeBurst(me, friend: friend, gaps: gaps, record: record)
            context.recordLatency("nudgeBurst", user: me.uid, intendedStartNanoseconds: arrival)
        }
    }

    /// Nudge All on the plan day: it must try only friends free that day.
    private static func nudgeAll(
        _ me: UFreeScenarioSupport.User, free: Set<String>, record: NudgeRecorder, attempted: Tally, context: ScenarioContext
    ) async {
        context.note(me.uid, "nudge all \(planDay)")
        do {
            let result = try await ScenarioSupport.retrying { try await me.client.nudgeAllFree(on: planDay) }
            for friend in result.nudgedFriendIds { record(friend, .success(())) }
            for failure in result.failures { record(failure.friendId, .failure(failure.error)) }
            let tried = (result.nudgedFriendIds + result.failures.map(\.friendId)).sorted()
            context.sometimes(Check.nudgeAllSent, !result.nudgedFriendIds.isEmpty)
            context.always(Check.nudgeAllOnlyFree, tried.allSatisfy { free.contains($0) },
                           "\(me.uid)'s Nudge All tried \(tried) but only \(free.sorted()) are free on \(planDay)")
            for skipped in result.unreadable { context.note(me.uid, "nudge all skipped \(skipped.friendId): \(skipped.error)") }
        } catch {
            // A Nudge All that failed as a whole may still have nudged some free friends
            // before the error (a timed-out request may have been applied): each free
            // friend may have been reached.
            for friend in free.sorted() where friend != me.uid { attempted.add("\(me.uid)>\(friend)") }
            context.note(me.uid, "nudge all failed: \(error)")
        }
    }

    /// Taps Nudge on `friend` once per gap, each tap its own task the gaps apart (the first at once).
    private static func nudgeBurst(_ me: UFreeScenarioSupport.User, friend: String, gaps: [Int], record: @escaping NudgeRecorder) async {
        await withTaskGroup(of: Void.self) { group in
            var offset = 0
            for tap in 0..<gaps.count {
                offset += tap == 0 ? 0 : gaps[tap]
                let delay = offset
                group.addTask {
                    await ScenarioSupport.sleep(milliseconds: delay)
                    do throws(UFreeError) {
                        try await me.client.nudge(friend)
                        record(friend, .success(()))
                    } catch { record(friend, .failure(error)) }
                }
            }
        }
    }

    /// Always: nudge notifications from one sender to one recipient are the cooldown apart.
    static func checkState(_ app: UFreeApp, users: [UFreeScenarioSupport.User], _ context: ScenarioContext) {
        let cooldown = Int64(cooldownSeconds) * 1_000_000_000
        for recipient in users {
            let nudges = app.backend.firestore.query("users/\(recipient.uid)/notifications") { $0["type"] == "nudge" }
            var bySender: [String: [Int64]] = [:]
            for nudge in nudges {
                bySender[nudge["senderId"]?.stringValue ?? "?", default: []].append(nudge["createdAt"]?.timestampValue?.unixNanoseconds ?? 0)
            }
            for sender in bySender.keys.sorted() {
                let times = bySender[sender]!.sorted()
                let tooClose = zip(times, times.dropFirst()).first { $1 - $0 < cooldown }
                context.always(Check.oneNudgePerCooldown, tooClose == nil,
                               "\(recipient.uid) got nudges from \(sender) \(tooClose.map { Double($0.1 - $0.0) / 1e9 } ?? 0) s apart (cooldown \(cooldownSeconds) s)")
            }
        }
    }

    /// Which notifications each device marked read, and which of those reads it saved (the call
    /// returned), by device label; and which each user marked read while a screen showed them unread.
    final class InboxTaps: Sendable {
        private let state = Mutex<(tapped: [String: Set<String>], saved: [String: Set<String>], seen: [String: Set<String>])>(([:], [:], [:]))
        func tapped(_ inbox: UFreeInbox, _ id: String) {
            state.withLock {
                $0.tapped[inbox.device, default: []].insert(id)
                $0.seen[inbox.userId, default: []].insert(id)
            }
        }
        func seen(by user: String) -> Set<String> { state.withLock { $0.seen[user] ?? [] } }
        func tapped(by device: String) -> Set<String> { state.withLock { $0.tapped[device] ?? [] } }
        func saved(_ device: String, _ id: String) { _ = state.withLock { $0.saved[device, default: []].insert(id) } }
        func saved(by device: String) -> Set<String> { state.withLock { $0.saved[device] ?? [] } }
    }

    /// A user glancing at one device's inbox now and then and tapping one unread notification.
    static func reader(_ inbox: UFreeInbox, number: Int, until end: UInt64, taps: InboxTaps, context: ScenarioContext) async {
        var random = Simulation.random("nudge/reader-\(number)")
        while !context.isStopped {
            await ScenarioSupport.sleep(until: Simulation.nowNanoseconds + UInt64(1_000 + random.below(5_000)) * 1_000_000)
            guard Simulation.nowNanoseconds < end else { return }
            let unread = inbox.unreadIds
            guard !unread.isEmpty else { continue }
            if random.below(100) < context.parameters[Parameter.markAllPercent] {
                await markAll(inbox, unread: unread, taps: taps, context: context)
                continue
            }
            let id = unread[random.below(unread.count)]
            context.note(inbox.device, "read \(id)")
            taps.tapped(inbox, id)
            do throws(UFreeError) {
                try await inbox.markRead(id)
                taps.saved(inbox.device, id)
            } catch { context.note(inbox.device, "read failed: \(error)") }
        }
    }

    /// The user taps "Mark all read" while the screen shows `unread` unread.
    static func markAll(_ inbox: UFreeInbox, unread: [String], taps: InboxTaps, context: ScenarioContext) async {
        context.note(inbox.device, "mark all read (\(unread.count) shown unread)")
        for id in unread { taps.tapped(inbox, id) }
        do throws(UFreeError) {
            for id in try await inbox.markAllRead() { taps.saved(inbox.device, id) }
            context.sometimes(Check.markedAllRead, true)
        } catch { context.note(inbox.device, "mark all read failed: \(error)") }
    }

    /// What one inbox draws, against the server at that moment (read directly, not through the
    /// device): "✓ Up to date" with a notification shown read means the server has it read; a read
    /// this device saved stays drawn read (the SDK never shows a state older than its saved write).
    static func checkScreen(_ app: UFreeApp, _ inbox: UFreeInbox, taps: InboxTaps, context: ScenarioContext) {
        let seen = taps.seen(by: inbox.userId)
        let unseen = app.backend.firestore.query("users/\(inbox.userId)/notifications") { $0["read"] == .bool(true) }.first { !seen.contains($0.id) }
        context.always(Check.readOnlyWhatWasShown, unseen == nil,
                       "\(inbox.userId)'s notification \(unseen?.id ?? "") is read on the server, but no screen of theirs showed it unread when they marked read")
        let saved = taps.saved(by: inbox.device)
        context.always(Check.savedReadStaysRead, !saved.contains { inbox.showsUnread($0) },
                       "\(inbox.device) saved \(saved.sorted().first { inbox.showsUnread($0) } ?? "")'s read and draws it unread again")
        let status = inbox.status
        let read = inbox.readIds
        guard !read.isEmpty else { return }
        let notifications = DocumentPath("users", inbox.userId)
        let unsaved = read.first { id in app.backend.firestore.liveFields(notifications.child("notifications", id))?["read"] != .bool(true) }
        context.sometimes(Check.readShownSyncing, status == .syncing && unsaved != nil)
        guard status == .synced else { return }
        context.always(Check.upToDateIsSaved, unsaved == nil,
                       "\(inbox.device) says up to date and shows \(unsaved ?? "") read; the server has it unread")
    }

    /// Each open inbox against the server (read directly, not through the device): the same
    /// notifications, and a badge equal to the unread count.
    static func checkInboxes(_ app: UFreeApp, _ inboxes: [UFreeInbox], taps: InboxTaps, context: ScenarioContext) {
        for inbox in inboxes {
            let documents = app.backend.firestore.query("users/\(inbox.userId)/notifications")
            let ids = documents.map(\.id).sorted()
            let unread = documents.count { $0["read"] != .bool(true) }
            let shown = inbox.notificationIds, badge = inbox.badge
            context.eventually(Check.inboxMatchesServer, shown == ids && badge == unread,
                               "\(inbox.device) shows \(shown.count) notifications with badge \(badge); the server has \(ids.count), \(unread) unread")
            context.eventually(Check.settlesUpToDate, inbox.status == .synced, "\(inbox.device) still says \(inbox.status) once idle")
            let sibling = inbox.device.hasSuffix("/phone") ? "\(inbox.userId)/tablet" : "\(inbox.userId)/phone"
            let mine = taps.tapped(by: inbox.device), theirs = taps.tapped(by: sibling)
            let readElsewhere = documents.contains { $0["read"] == .bool(true) && theirs.contains($0.id) && !mine.contains($0.id) }
            context.sometimes(Check.readOnOtherDevice, readElsewhere && !inbox.unreadIds.contains { theirs.contains($0) && !mine.contains($0) })
        }
    }
}
