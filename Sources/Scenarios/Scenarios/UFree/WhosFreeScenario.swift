import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// UFree's "Who's free on…" badge: friends edit their days, then each viewer pulls to refresh;
/// the refresh shows the rows at once, upserts them into the phone's store in the background and
/// the badge is recomputed from the store twice (the view model's and the store observer's).
/// Judged after every refresh against the server's days, counted here.
public struct WhosFreeScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .whosFree }
    /// The name `rehearse` takes.
    public let name = "whos-free"
    /// One line for `rehearse list`.
    public let summary = "UFree who's-free badge recomputed from the phone's store while a refresh upserts in the background"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.friends, Parameter.viewers, Parameter.days, Parameter.rounds, Parameter.editsPerRound,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["refresh"]
    /// The variants it should catch.
    public let variants = [UFreeVariant.heatmapUnversionedPublish.rawValue, UFreeVariant.heatmapOneWeek.rawValue]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [Check.badgeMatchesFriends, Check.storeMatchesServer, Check.refreshed]

    /// The first day counted; the others follow it.
    static let firstDay = UFreeDay(year: 2026, month: 1, day: 14)
    /// Virtual length of one round: edits in its first half, refreshes in its second.
    static let roundSeconds = 300

    /// Runs one seed: sign-up and friendships, then rounds of edits and refreshes.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = UFreeScenarioSupport.makeApp(context)
        let days = (0..<p[Parameter.days]).map { Self.firstDay.adding(days: $0) }
        let users = await UFreeScenarioSupport.signUp(app, count: p[Parameter.friends] + p[Parameter.viewers])
        let friends = Array(users.prefix(p[Parameter.friends])), viewers = Array(users.suffix(p[Parameter.viewers]))
        for viewer in viewers {
            for friend in friends {
                _ = try? await ScenarioSupport.retrying { try await viewer.client.sendFriendRequest(to: friend.uid) }
                _ = try? await ScenarioSupport.retrying { try await friend.client.respondToFriendRequest(from: viewer.uid, accept: true) }
            }
        }
        let screens = viewers.map { app.friendsSchedule(userId: $0.uid, device: "\($0.uid)/phone") }
        try context.throwIfStopped()
        var random = Simulation.random("whos-free/edits")
        for round in 0..<p[Parameter.rounds] {
            let start = Simulation.nowNanoseconds
            let half = UInt64(Self.roundSeconds / 2) * 1_000_000_000
            for arrival in ScenarioSupport.arrivals(count: p[Parameter.editsPerRound], durationSeconds: Self.roundSeconds / 2, random: &random, origin: start) {
                await ScenarioSupport.sleep(until: arrival)
                let friend = friends[random.below(friends.count)]
                let day = days[random.below(days.count)]
                let status = UFreeAvailabilityStatus.allCases[random.below(UFreeAvailabilityStatus.allCases.count)]
                do {
                    try await ScenarioSupport.retrying { try await friend.client.setAvailability(day: day, status: status) }
                    context.note(friend.uid, "set \(day.key) \(status)")
                } catch { context.note(friend.uid, "set \(day.key) \(status) failed: \(error)") }
            }
            await app.backend.waitUntilIdle()
            try context.throwIfStopped()
            // What every refresh of this round must end with: the server's days of each viewer's
            // friends (a friend request that failed on every retry leaves a pair unfriended), read here.
            var truths: [[String: UFreeAvailabilityStatus]] = []
            for viewer in viewers { truths.append(await Self.serverDays(app, friends: await app.friendIds(of: viewer.uid), days: days)) }
            await withTaskGroup(of: Void.self) { group in
                for (index, screen) in screens.enumerated() {
                    let truth = truths[index]
                    let offset = start + half + UInt64(random.below(Self.roundSeconds / 2 * 1_000)) * 1_000_000
                    group.addTask {
                        await Simulation.named("viewer-\(index)") {
                            await ScenarioSupport.sleep(until: offset)
                            await Self.refreshAndJudge(app, screen, round: round, days: days, truth: truth, offset: offset, context: context)
                        }
                    }
                }
            }
            await ScenarioSupport.sleep(until: start + UInt64(Self.roundSeconds) * 1_000_000_000)
            try context.throwIfStopped()
        }
    }

    /// The server's status per friend and day (admin reads), keyed "friend/day" (absent: no status).
    static func serverDays(_ app: UFreeApp, friends: [String], days: [UFreeDay]) async -> [String: UFreeAvailabilityStatus] {
        var truth: [String: UFreeAvailabilityStatus] = [:]
        for friend in friends {
            for day in days {
                let snapshot = await app.backend.firestore.get(DocumentPath("users", friend).child("availability", day.key))
                if let raw = snapshot["status"]?.intValue, let status = UFreeAvailabilityStatus(rawValue: Int(raw)) { truth["\(friend)/\(day.key)"] = status }
            }
        }
        return truth
    }

    /// One pull to refresh; when it and its background upsert have finished, the badge and the
    /// store are compared with `truth`, counted here (not with the domain's heatmap).
    static func refreshAndJudge(
        _ app: UFreeApp, _ screen: UFreeFriendsSchedule, round: Int, days: [UFreeDay], truth: [String: UFreeAvailabilityStatus],
        offset: UInt64, context: ScenarioContext
    ) async {
        let refusedBefore = await screen.discardedRecomputations
        do {
            try await screen.refresh(days: days)
        } catch {
            context.note(screen.device, "refresh \(round) failed: \(error)")
            return
        }
        await screen.settle()
        context.recordLatency("refresh", user: screen.device, intendedStartNanoseconds: offset)
        // A friend's write that timed out may still apply after the round's reading: then the
        // refresh may have read either state and is not judged.
        guard await Self.serverDays(app, friends: await app.friendIds(of: screen.userId), days: days) == truth else {
            context.note(screen.device, "refresh \(round): a friend's day changed on the server during the refresh (a timed-out write applied late): not judged")
            return
        }
        context.sometimes(Check.refreshed, true)
        let badge = await screen.badge
        for (index, day) in days.enumerated() {
            var free = 0, partly = 0
            for (key, status) in truth where key.hasSuffix("/\(day.key)") {
                switch status {
                case .free: free += 1
                case .morningOnly, .afternoonOnly, .eveningOnly: partly += 1
                case .busy: break
                }
            }
            let shown = index < badge.count && badge[index].day == day ? (badge[index].freeCount, badge[index].partlyFreeCount) : (-1, -1)
            context.always(Check.badgeMatchesFriends, shown == (free, partly),
                           "\(screen.device) after refresh \(round): the badge shows \(day.key) free \(shown.0), partly free \(shown.1); the friends' days say \(free) and \(partly)")
        }
        let rows = await screen.storedRows
        var stored: [String: UFreeAvailabilityStatus] = [:]
        for row in rows { if let status = row.status { stored["\(row.friendId)/\(row.day.key)"] = status } }
        let wrong = (Set(stored.keys).union(truth.keys)).sorted().filter { stored[$0] != truth[$0] }
        context.always(Check.storeMatchesServer, wrong.isEmpty,
                       "\(screen.device) after refresh \(round): the store disagrees with the server on \(wrong.prefix(3).joined(separator: ", "))\(wrong.count > 3 ? " and \(wrong.count - 3) more" : "")")
        if await screen.discardedRecomputations > refusedBefore {
            context.note(screen.device, "refresh \(round): the badge refused a recomputation that read the store before the background upsert")
        }
    }
}
