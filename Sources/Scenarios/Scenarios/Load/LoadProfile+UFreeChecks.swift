import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

// friend-handshake's checks for its load profile, judged once the load settled on the documents
// as a function reads them (from the server in real mode): the scenario's own checks, by name.
extension LoadProfile {
    /// The checks friend-handshake's profile judges.
    static let friendHandshakeChecks = [
        FriendHandshakeScenario.Check.oneFriendshipPerPair, FriendHandshakeScenario.Check.noDuplicateRequests,
        FriendHandshakeScenario.Check.friendshipBidirectional,
    ]

    /// One friendship document per pair, at most one open request per pair and none between
    /// friends, and `friendIds` symmetric and matching the friendship documents, over `users`.
    static func settleFriendships(_ app: UFreeApp, users: [String], _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let firestore = app.backend.firestore
        var friendships: [String: Int] = [:], pending: [String: Int] = [:]
        for document in await firestore.fetch("friendships") {
            let pair = (document["members"]?.arrayValue ?? []).compactMap(\.stringValue).sorted().joined(separator: "+")
            if document["state"]?.stringValue == "pending" { pending[pair, default: 0] += 1 } else { friendships[pair, default: 0] += 1 }
        }
        for pair in friendships.keys.sorted() {
            checks.always(FriendHandshakeScenario.Check.oneFriendshipPerPair, failure: friendships[pair]! <= 1 ? nil
                : "\(pair) linked by \(friendships[pair]!) friendship documents")
        }
        for pair in pending.keys.sorted() {
            let count = pending[pair]!, linked = friendships[pair, default: 0]
            checks.always(FriendHandshakeScenario.Check.noDuplicateRequests, failure: count <= 1 && linked == 0 ? nil
                : "\(pair) has \(count) open request(s) and \(linked) friendship(s)")
        }
        var friends: [String: Set<String>] = [:]
        for user in await firestore.fetch("users") where users.contains(user.id) {
            friends[user.id] = Set((user["friendIds"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        for (index, first) in users.enumerated() {
            for second in users[(index + 1)...] {
                let forward = friends[first, default: []].contains(second), backward = friends[second, default: []].contains(first)
                let documents = friendships[[first, second].sorted().joined(separator: "+"), default: 0]
                checks.always(FriendHandshakeScenario.Check.friendshipBidirectional,
                              failure: forward == backward && (documents == 1) == forward && documents <= 1 ? nil
                                : "\(first) → \(second): \(forward), \(second) → \(first): \(backward), \(documents) friendship document(s)")
            }
        }
    }
}

// nudge-storm's check for its load profile, judged the same way.
extension LoadProfile {
    /// Nudges from one sender to one recipient at least `app.nudgeCooldown` apart, over every
    /// recipient's notifications in `users`.
    static func settleNudges(_ app: UFreeApp, users: [String], _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let cooldown = app.nudgeCooldown.nanoseconds
        for recipient in users {
            var bySender: [String: [Int64]] = [:]
            for nudge in await app.backend.firestore.fetch("users/\(recipient)/notifications") where nudge["type"] == "nudge" {
                bySender[nudge["senderId"]?.stringValue ?? "?", default: []].append(nudge["createdAt"]?.timestampValue?.unixNanoseconds ?? 0)
            }
            for sender in bySender.keys.sorted() {
                let times = bySender[sender]!.sorted()
                let tooClose = zip(times, times.dropFirst()).first { $1 - $0 < cooldown }
                checks.always(NudgeStormScenario.Check.oneNudgePerCooldown, failure: tooClose.map {
                    "\(recipient) got nudges from \(sender) \(Double($0.1 - $0.0) / 1e9) s apart (cooldown \(app.nudgeCooldown))"
                })
            }
        }
    }
}

// whos-free's checks for its load profile: once the load settled, each viewer refreshes once
// more, and its badge and store are judged against the friends' days as a function reads them.
extension LoadProfile {
    /// The checks whos-free's profile judges.
    static let whosFreeChecks = [WhosFreeScenario.Check.badgeMatchesFriends, WhosFreeScenario.Check.storeMatchesServer]

    /// Each of `screens` refreshed (its background upsert finished) after the load: its badge counts,
    /// per day, the friends the server holds free or partly free, and its store holds their days.
    static func settleBadges(_ app: UFreeApp, screens: [UFreeFriendsSchedule], friends: [String], days: [UFreeDay], _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let truth = await WhosFreeScenario.serverDays(app, friends: friends, days: days)
        for screen in screens {
            guard await refreshed(screen, days: days) else { continue }
            let badge = await screen.badge
            for (index, day) in days.enumerated() {
                let statuses = truth.filter { $0.key.hasSuffix("/\(day.key)") }.map(\.value)
                let free = statuses.count { $0 == .free }, partly = statuses.count { [.morningOnly, .afternoonOnly, .eveningOnly].contains($0) }
                let shown = index < badge.count && badge[index].day == day ? (badge[index].freeCount, badge[index].partlyFreeCount) : (-1, -1)
                checks.always(WhosFreeScenario.Check.badgeMatchesFriends, failure: shown == (free, partly) ? nil
                    : "\(screen.device): the badge shows \(day.key) free \(shown.0), partly free \(shown.1); the friends' days say \(free) and \(partly)")
            }
            var stored: [String: UFreeAvailabilityStatus] = [:]
            for row in await screen.storedRows { if let status = row.status { stored["\(row.friendId)/\(row.day.key)"] = status } }
            let wrong = Set(stored.keys).union(truth.keys).sorted().filter { stored[$0] != truth[$0] }
            checks.always(WhosFreeScenario.Check.storeMatchesServer, failure: wrong.isEmpty ? nil
                : "\(screen.device): the store disagrees with the server on \(wrong.prefix(3).joined(separator: ", "))")
        }
    }

    /// One pull to refresh of `screen` and its background upsert, tried up to five times.
    private static func refreshed(_ screen: UFreeFriendsSchedule, days: [UFreeDay]) async -> Bool {
        for _ in 0..<5 {
            do {
                try await screen.refresh(days: days)
                await screen.settle()
                return true
            } catch {
                continue
            }
        }
        return false
    }
}

// offline-sync's checks for its load profile: once the load ended, every device comes online and
// syncs until none has a write pending or a day unread; then the server and every cache are judged.
extension LoadProfile {
    /// The checks offline-sync's profile judges.
    static let offlineSyncChecks = [OfflineSyncScenario.Check.newestEditWins, OfflineSyncScenario.Check.cachesMatchServer]

    /// Each user's day on the server is their newest edit (or one made within the concurrency
    /// window of it), and every device's cache holds what the server holds.
    static func settleDevices(_ app: UFreeApp, devices: [UFreeDevice], days: [UFreeDay], log: OfflineSyncScenario.Log, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        guard await synced(devices, days: days) else { return }
        await app.backend.waitUntilIdle()
        let concurrent = OfflineSyncScenario.concurrentEditsNanoseconds(app.backend.faults), edits = log.edits
        var restamped: [UFreeEditStamp: UFreeEditStamp] = [:]
        for device in devices { restamped.merge(await device.restamped) { first, _ in first } }
        for device in devices {
            let cache = await device.days
            for day in days {
                let stamp = UFreeEditStamp(await app.backend.firestore.get(DocumentPath("users", device.uid).child("availability", day.key)).fields)
                if device.label.hasSuffix("/\(OfflineSyncScenario.deviceNames[0])"), let dayEdits = edits["\(device.uid)/\(day.key)"],
                   let newest = dayEdits.max(by: { $0.realNanoseconds < $1.realNanoseconds }) {
                    let held = dayEdits.first { (restamped[$0.stamp] ?? $0.stamp) == stamp }
                    let lag = held.map { newest.realNanoseconds - $0.realNanoseconds } ?? .max
                    checks.always(OfflineSyncScenario.Check.newestEditWins, failure: held != nil && lag <= concurrent ? nil
                        : "\(device.uid) \(day.key): the server holds the edit of \(stamp?.editor ?? "nobody"), not the newest, \(newest.stamp.editor)'s")
                }
                checks.always(OfflineSyncScenario.Check.cachesMatchServer, failure: cache[day.key]?.stamp == stamp ? nil
                    : "\(device.label) shows \(day.key) from \(cache[day.key].map { "\($0.stamp.editor)@\($0.stamp.editedAt)" } ?? "none") but the server holds \(stamp.map { "\($0.editor)@\($0.editedAt)" } ?? "none")")
            }
        }
    }

    /// Every device online and its queue sent, then (all sent) every device's days read, in up to
    /// ten rounds: true once no device has a write pending or a day unread.
    private static func synced(_ devices: [UFreeDevice], days: [UFreeDay]) async -> Bool {
        for _ in 0..<10 {
            for device in devices {
                await device.setOnline(true)
                await device.flush()
            }
            var quiet = true
            for device in devices {
                let unread = await device.refresh(days), pending = await device.pendingCount
                if unread > 0 || pending > 0 { quiet = false }
            }
            if quiet { return true }
        }
        return false
    }
}
