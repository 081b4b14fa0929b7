import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// Stampbook: users collect stamps (double taps, retries) and like collection posts with an
/// optimistic UI (double taps joined by request de-duplication, stale unlikes).
public struct StampCollectScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .stampCollect }
    /// The name `rehearse` takes.
    public let name = "stamp-collect"
    /// One line for `rehearse list`.
    public let summary = "Stampbook stamp collecting (double taps, retries) and de-duplicated likes"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.stamps,
        Parameter.actionsPerUser,
        Parameter.durationSeconds,
        Parameter.collectPercent,
        Parameter.doubleTapPercent,
        Parameter.staleUnlikePercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["collect", "like", "unlike"]
    /// The variants it should catch.
    public let variants = [StampbookVariant.incrementCollectors.rawValue, StampbookVariant.blindLikeIncrement.rawValue,
                                 StampbookVariant.likeDedupReentrant.rawValue, StampbookVariant.collectGuardReentrant.rawValue,
                                 StampbookVariant.collectorsListCapped.rawValue]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.collectorsConsistent,
        Check.likeCountNotNegative,
        Check.likeCountMatchesLikes,
        Check.collectorsMatchRecords,
        Check.doubleCollectRefused,
        Check.likeJoined,
    ]

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = StampbookApp(backend: context.backend(), variant: ScenarioSupport.variant(context, StampbookVariant.self))
        let stampIds = (0..<p[Parameter.stamps]).map { "stamp\($0)" }
        for id in stampIds { try? await app.addStamp(stampId: id, name: "Stamp \(id)") }
        let users = (0..<p[Parameter.users]).map { index in (uid: "u\(index)", client: app.client(uid: "u\(index)")) }
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(250), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (index, user) in users.enumerated() {
                    group.addTask {
                        await Simulation.named("collector-\(index)") {
                            await Self.userLoop(app, uid: user.uid, client: user.client, index: index, users: users.map(\.uid),
                                                stampIds: stampIds, origin: origin, context: context)
                        }
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        let firestore = app.backend.firestore
        for post in firestore.query("feed_posts") {
            let likes = firestore.query("feed_posts/\(post.id)/likes").count
            let count = post["likeCount"]?.intValue ?? 0
            context.eventually(LikeStormScenario.Check.likeCountMatchesLikes, count == Int64(likes), "post \(post.id) likeCount \(count) but \(likes) like document(s)")
        }
        for stampId in stampIds {
            let collectors = await app.statistics(of: stampId).collectorUserIds.sorted()
            var records: [String] = []
            for user in users {
                if await firestore.get(DocumentPath("users", user.uid).child("collected_stamps", stampId)).exists { records.append(user.uid) }
            }
            // Compared as sets in one order: user ids sort lexicographically (u10 before u2).
            records.sort()
            context.eventually(Check.collectorsMatchRecords, collectors == records, "\(stampId) collectors \(collectors) but records \(records)")
        }
        try context.throwIfStopped()
    }

    static func userLoop(
        _ app: StampbookApp, uid: String, client: StampbookClient, index: Int, users: [String], stampIds: [String], origin: UInt64, context: ScenarioContext
    ) async {
        let p = context.parameters
        var random = Simulation.random("stamps/user-\(index)")
        var liked: Set<String> = []  // the optimistic UI's belief
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let doubleTap = random.below(100) < p[Parameter.doubleTapPercent]
            if random.below(100) < p[Parameter.collectPercent] {
                let stampId = stampIds[random.below(stampIds.count)]
                context.note(uid, doubleTap ? "double-tap collect \(stampId)" : "collect \(stampId)")
                let collect: @Sendable () async -> Void = {
                    do { try await ScenarioSupport.retrying { try await client.collectStamp(stampId) } } catch {
                        if case StampbookError.alreadyCollected = error { context.sometimes(Check.doubleCollectRefused, true) }
                    }
                }
                if doubleTap {
                    async let first: Void = collect()
                    async let second: Void = collect()
                    _ = await (first, second)
                } else {
                    await collect()
                }
                context.recordLatency("collect", user: uid, intendedStartNanoseconds: arrival)
                continue
            }
            let postId = "\(users[random.below(users.count)])_\(stampIds[random.below(stampIds.count)])"
            let stale = random.below(100) < p[Parameter.staleUnlikePercent]
            let like = !liked.contains(postId) && !stale
            context.note(uid, "\(like ? "like" : "unlike") \(postId)\(doubleTap ? " ×2" : "")")
            let tap: @Sendable () async -> Bool? = {
                try? await ScenarioSupport.retrying { try await client.setLike(postId: postId, liked: like) }
            }
            if doubleTap {
                async let first = tap()
                async let second = tap()
                let sent = [await first, await second]
                context.sometimes(Check.likeJoined, sent.contains(false))
            } else {
                _ = await tap()
            }
            if like { liked.insert(postId) } else { liked.remove(postId) }
            context.recordLatency(like ? "like" : "unlike", user: uid, intendedStartNanoseconds: arrival)
        }
    }

    /// Always-checks on single documents: statistics and like counts.
    static func checkState(_ app: StampbookApp, _ context: ScenarioContext) {
        for statistics in app.backend.firestore.query("stamp_statistics") {
            let collectors = (statistics["collectorUserIds"]?.arrayValue ?? []).compactMap(\.stringValue)
            let total = statistics["totalCollectors"]?.intValue ?? 0
            context.always(Check.collectorsConsistent, total == Int64(collectors.count) && Set(collectors).count == collectors.count,
                           "\(statistics.id) totalCollectors \(total) but collectorUserIds \(collectors)")
        }
        for post in app.backend.firestore.query("feed_posts") {
            let count = post["likeCount"]?.intValue ?? 0
            context.always(LikeStormScenario.Check.likeCountNotNegative, count >= 0, "post \(post.id) likeCount \(count)")
        }
    }
}
