import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// UFree friend handshake: users send each other requests (sometimes both at the same instant),
/// accept what arrives in their inbox and remove friends; one friendship per pair, both ways.
public struct FriendHandshakeScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .friendHandshake }
    /// The name `rehearse` takes.
    public let name = "friend-handshake"
    /// One line for `rehearse list`.
    public let summary = "UFree friend requests sent both ways at once, accepted and removed"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.actionsPerUser,
        Parameter.durationSeconds,
        Parameter.crossPercent,
        Parameter.removePercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["sendRequest", "acceptRequest", "crossingRequest", "removeFriend"]
    /// The variants it should catch.
    public let variants = [UFreeVariant.twoWayRequests.rawValue, UFreeVariant.seedRulesLiteral.rawValue, UFreeVariant.sentRequestsQuery.rawValue]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.oneFriendshipPerPair,
        Check.noDuplicateRequests,
        Check.crossingRequestsBefriend,
        Check.friendshipBidirectional,
        Check.crossingBefriended,
        Check.accepted,
        Check.removed,
        Check.rulesAllowTheApp,
    ]

    /// Operations on each unordered pair: how many started and how many are in flight, so a
    /// crossing request is judged only when nothing else touched its pair meanwhile.
    final class PairActivity: Sendable {
        private let state = Mutex<(started: [String: Int], inFlight: [String: Int])>(([:], [:]))
        static func key(_ first: String, _ second: String) -> String { first < second ? "\(first)+\(second)" : "\(second)+\(first)" }
        /// (started, in flight) for the pair now.
        func snapshot(_ key: String) -> (started: Int, inFlight: Int) { state.withLock { ($0.started[key, default: 0], $0.inFlight[key, default: 0]) } }
        func run<T>(_ key: String, _ body: () async -> T) async -> T {
            state.withLock { $0.started[key, default: 0] += 1; $0.inFlight[key, default: 0] += 1 }
            let result = await body()
            state.withLock { $0.inFlight[key, default: 0] -= 1 }
            return result
        }
    }

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = UFreeScenarioSupport.makeApp(context)
        let activity = PairActivity()
        let users = await UFreeScenarioSupport.signUp(app, count: p[Parameter.users])
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(250), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for index in users.indices {
                    group.addTask {
                        await Simulation.named("ufree-user-\(index)") {
                            await Self.userLoop(app, users: users, index: index, origin: origin, activity: activity, context: context)
                        }
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        await Self.checkEnd(app, users: users, context)
        try context.throwIfStopped()
    }

    static func userLoop(
        _ app: UFreeApp, users: [UFreeScenarioSupport.User], index: Int, origin: UInt64, activity: PairActivity, context: ScenarioContext
    ) async {
        let p = context.parameters
        var random = Simulation.random("handshake/user-\(index)")
        let me = users[index]
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            var otherIndex = random.below(users.count - 1)
            if otherIndex >= index { otherIndex += 1 }
            let other = users[otherIndex]
            let crossing = random.below(100) < p[Parameter.crossPercent]
            let removing = random.below(100) < p[Parameter.removePercent]
            let friends = await app.friendIds(of: me.uid)  // what the Friends tab shows
            if crossing {
                await cross(app, me, other, activity: activity, context: context)
                context.recordLatency("crossingRequest", user: me.uid, intendedStartNanoseconds: arrival)
            } else if friends.contains(other.uid) {
                guard removing else { continue }
                context.note(me.uid, "remove \(other.uid)")
                await activity.run(PairActivity.key(me.uid, other.uid)) {
                    do {
                        try await ScenarioSupport.retrying { try await me.client.removeFriend(other.uid) }
                        context.sometimes(Check.removed, true)
                    } catch {
                        RulesAllowTheApp.judge(error, user: me.uid, action: "removal of \(other.uid)", context)
                        context.note(me.uid, "remove failed: \(error)")
                    }
                }
                context.recordLatency("removeFriend", user: me.uid, intendedStartNanoseconds: arrival)
            } else if let inbox = try? await me.client.inbox(),
                      let request = inbox.first(where: { $0.kind == .friendRequest && !$0.isRead }) {
                context.note(me.uid, "accept \(request.senderId)")
                await activity.run(PairActivity.key(me.uid, request.senderId)) {
                    do {
                        _ = try await ScenarioSupport.retrying { try await me.client.respondToFriendRequest(from: request.senderId, accept: true) }
                        context.sometimes(Check.accepted, true)
                    } catch {
                        RulesAllowTheApp.judge(error, user: me.uid, action: "accepting \(request.senderId)'s request", context)
                        context.note(me.uid, "accept failed: \(error)")
                    }
                }
                _ = try? await me.client.markRead(request.notificationId)
                context.recordLatency("acceptRequest", user: me.uid, intendedStartNanoseconds: arrival)
            } else {
                context.note(me.uid, "request \(other.uid)")
                await activity.run(PairActivity.key(me.uid, other.uid)) {
                    do {
                        _ = try await ScenarioSupport.retrying { try await me.client.sendFriendRequest(to: other.uid) }
                    } catch {
                        RulesAllowTheApp.judge(error, user: me.uid, action: "friend request to \(other.uid)", context)
                        context.note(me.uid, "request failed: \(error)")
                    }
                }
                context.recordLatency("sendRequest", user: me.uid, intendedStartNanoseconds: arrival)
            }
        }
    }

    /// Both users tap "Add friend" on each other at the same instant (two devices).
    static func cross(
        _ app: UFreeApp, _ first: UFreeScenarioSupport.User, _ second: UFreeScenarioSupport.User, activity: PairActivity, context: ScenarioContext
    ) async {
        context.note(first.uid, "crossing request with \(second.uid)")
        let send: @Sendable (UFreeScenarioSupport.User, UFreeScenarioSupport.User) async -> Result<UFreeFriendshipOutcome, any Error> = { from, to in
            do { return .success(try await ScenarioSupport.retrying { try await from.client.sendFriendRequest(to: to.uid) }) }
            catch { return .failure(error) }
        }
        let key = PairActivity.key(first.uid, second.uid)
        let before = activity.snapshot(key)
        async let forward = activity.run(key) { await send(first, second) }
        async let backward = activity.run(key) { await send(second, first) }
        let outcomes = [await forward, await backward]
        for case (let user, .failure(let error)) in zip([first.uid, second.uid], outcomes) {
            RulesAllowTheApp.judge(error, user: user, action: "crossing request", context)
        }
        let after = activity.snapshot(key)
        // Judged only when no other request, answer or removal of this pair overlapped the crossing.
        let alone = before.inFlight == 0 && after.started == before.started + 2
        let requested = outcomes.filter { if case .success(.requested) = $0 { true } else { false } }.count
        let befriended = outcomes.contains { if case .success(.becameFriends) = $0 { true } else { false } }
        context.sometimes(Check.crossingBefriended, befriended)
        context.always(Check.crossingRequestsBefriend, !alone || requested < 2,
                       "\(first.uid) and \(second.uid) asked each other at once and both requests stayed open")
        context.note(first.uid, "crossing with \(second.uid): \(outcomes.map { (try? $0.get()).map { "\($0)" } ?? "error" })")
    }

    /// Always-checks over friendships and open requests (admin reads of single documents).
    static func checkState(_ app: UFreeApp, _ context: ScenarioContext) {
        let firestore = app.backend.firestore
        var friendships: [String: Int] = [:]
        var pending: [String: Int] = [:]
        for document in firestore.query("friendships") {
            let members = (document["members"]?.arrayValue ?? []).compactMap(\.stringValue).sorted().joined(separator: "+")
            if document["state"]?.stringValue == "pending" { pending[members, default: 0] += 1 } else { friendships[members, default: 0] += 1 }
        }
        for request in firestore.query("friend_requests") {
            let pair = [request["from"]?.stringValue ?? "", request["to"]?.stringValue ?? ""].sorted().joined(separator: "+")
            pending[pair, default: 0] += 1
        }
        for pair in friendships.keys.sorted() {
            context.always(Check.oneFriendshipPerPair, friendships[pair]! <= 1, "\(pair) linked by \(friendships[pair]!) friendship documents")
        }
        for pair in pending.keys.sorted() {
            let count = pending[pair]!
            context.always(Check.noDuplicateRequests, count <= 1 && friendships[pair, default: 0] == 0,
                           "\(pair) has \(count) open request(s) and \(friendships[pair, default: 0]) friendship(s)")
        }
    }

    /// End state: friendIds are symmetric and match the friendship documents.
    static func checkEnd(_ app: UFreeApp, users: [UFreeScenarioSupport.User], _ context: ScenarioContext) async {
        guard !context.isStopped else { return }
        var friends: [String: Set<String>] = [:]
        for user in users { friends[user.uid] = Set(await app.friendIds(of: user.uid)) }
        for (a, first) in users.enumerated() {
            for second in users[(a + 1)...] {
                let forward = friends[first.uid]!.contains(second.uid), backward = friends[second.uid]!.contains(first.uid)
                let documents = app.friendshipCount(first.uid, second.uid)
                context.eventually(Check.friendshipBidirectional, forward == backward && (documents == 1) == forward && documents <= 1,
                                   "\(first.uid)→\(second.uid) \(forward), \(second.uid)→\(first.uid) \(backward), \(documents) friendship document(s)")
            }
        }
    }
}
