import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// Inspired: users sign up at once (some with the same display name), keep trying to read
/// profiles they may not see (private, no shared community, or signed out), and like posts with
/// double taps. No unauthorised read may succeed; usernames stay unique; likeCount stays true.
public struct PrivacyAccessScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .privacyAccess }
    /// The name `rehearse` takes.
    public let name = "privacy-access"
    /// One line for `rehearse list`.
    public let summary = "Inspired unauthorised profile reads, concurrent sign-ups, double-tapped likes"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.communities,
        Parameter.publicPercent,
        Parameter.actionsPerUser,
        Parameter.durationSeconds,
        Parameter.readPercent,
        Parameter.doubleTapPercent,
        Parameter.triggerQueryMilliseconds,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["readProfile", "like", "unlike"]
    /// The variants it should catch.
    public let variants = [InspiredVariant.unreservedUsername.rawValue, InspiredVariant.likeWithoutTransaction.rawValue, InspiredVariant.likeTapGuardReentrant.rawValue, InspiredVariant.triggersWithoutRetries.rawValue, InspiredVariant.usernameBlindCreate.rawValue]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.noUnauthorisedRead,
        Check.signedOutReadDenied,
        Check.usernamesUnique,
        Check.likeCountNotNegative,
        Check.likeCountMatchesLikes,
        Check.everyUserNamed,
        Check.readDenied,
        Check.readAllowed,
    ]

    /// One user as the scenario models them: what the rules should let others see.
    struct Member: Sendable {
        let uid: String
        let client: InspiredClient
        let community: String
        let isPublic: Bool
    }

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let app = Self.makeApp(context)
        let everyone = Self.members(app, context.parameters)
        await Self.signUpAtOnce(everyone)
        let anonymous = app.client(uid: nil)
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(250), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for index in everyone.indices {
                    group.addTask {
                        await Simulation.named("inspired-user-\(index)") {
                            await Self.userLoop(app, members: everyone, index: index, anonymous: anonymous, origin: origin, context: context)
                        }
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        Self.checkCountsAndNames(app, context)
        Self.checkState(app, context)
        try context.throwIfStopped()
    }

    /// The app with usernames of 4 suffix digits, its username trigger slowed by seeded admin-SDK latency.
    private static func makeApp(_ context: ScenarioContext) -> InspiredApp {
        let p = context.parameters
        // The trigger's admin-SDK reads and writes take time (the simulated admin calls take none):
        // each user's trigger waits a seeded 0…triggerQueryMilliseconds before its check and its write.
        let latency = p[Parameter.triggerQueryMilliseconds]
        let adminLatency: @Sendable (String, String) async -> Void = { step, userId in
            var random = Simulation.random("privacy/trigger-\(step)/\(userId)")
            await ScenarioSupport.sleep(milliseconds: random.below(latency + 1))
        }
        let probe = InspiredProbe(
            beforeUsernameClaim: { await adminLatency("check", $0) }, betweenUsernameCheckAndWrite: { await adminLatency("write", $0) })
        return InspiredApp(
            backend: context.backend(), variant: ScenarioSupport.variant(context, InspiredVariant.self),
            usernameSuffixDigits: 4, probe: probe)
    }

    /// The users, each with a drawn community and a drawn public profile.
    private static func members(_ app: InspiredApp, _ p: ScenarioParameters) -> [Member] {
        var random = Simulation.random("privacy/setup")
        var members: [Member] = []
        for index in 0..<p[Parameter.users] {
            let uid = "u\(index)"
            members.append(Member(
                uid: uid, client: app.client(uid: uid),
                community: "c\(random.below(p[Parameter.communities]))", isPublic: random.below(100) < p[Parameter.publicPercent]))
        }
        return members
    }

    /// Everyone signs up at the same instant, so the username triggers race; half of them share
    /// one display name.
    private static func signUpAtOnce(_ everyone: [Member]) async {
        await withTaskGroup(of: Void.self) { group in
            for (index, member) in everyone.enumerated() {
                group.addTask {
                    let name = index % 2 == 0 ? "Sam Lee" : "User \(index)"
                    _ = try? await ScenarioSupport.retrying { try await member.client.createProfile(displayName: name, joinedCommunities: [member.community]) }
                    if member.isPublic {
                        let settings = InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public)
                        _ = try? await ScenarioSupport.retrying { try await member.client.updatePrivacy(settings) }
                    }
                    _ = try? await ScenarioSupport.retrying {
                        try await member.client.createPost(postId: "p\(index)", content: "Post by \(member.uid)", source: (type: "studio", name: member.community))
                    }
                }
            }
        }
    }

    /// like-count-matches-likes on every post and every-user-named on every user, once idle.
    private static func checkCountsAndNames(_ app: InspiredApp, _ context: ScenarioContext) {
        let firestore = app.backend.firestore
        for post in firestore.query("posts") {
            let likes = firestore.query("posts/\(post.id)/likes").count
            let count = post["stats"]?.mapValue?["likeCount"]?.intValue ?? 0
            context.eventually(LikeStormScenario.Check.likeCountMatchesLikes, count == Int64(likes), "post \(post.id) likeCount \(count) but \(likes) like document(s)")
        }
        for user in firestore.query("users") {
            context.eventually(Check.everyUserNamed, user["username"]?.stringValue != nil, "\(user.id) has no username")
        }
    }

    static func userLoop(_ app: InspiredApp, members: [Member], index: Int, anonymous: InspiredClient, origin: UInt64, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("privacy/user-\(index)")
        let me = members[index]
        var liked: Set<String> = []
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            var targetIndex = random.below(members.count - 1)
            if targetIndex >= index { targetIndex += 1 }
            let target = members[targetIndex]
            if random.below(100) < p[Parameter.readPercent] {
                let allowed = target.isPublic || target.community == me.community
                context.note(me.uid, "read \(target.uid) (\(allowed ? "allowed" : "not allowed"))")
                // no-unauthorised-read is evaluated only on unauthorised attempts (an allowed read
                // succeeding says nothing about privacy), so a sweep without one reports it not-checked.
                do {
                    _ = try await ScenarioSupport.retrying { try await me.client.profile(of: target.uid) }
                    context.sometimes(Check.readAllowed, allowed)
                    if !allowed { context.always(Check.noUnauthorisedRead, false, "\(me.uid) (\(me.community)) read private \(target.uid) (\(target.community))") }
                } catch {
                    if case InspiredError.profileNotVisible = error, !allowed {
                        context.sometimes(Check.readDenied, true)
                        context.always(Check.noUnauthorisedRead, true, "")
                    }
                }
                let signedOut = try? await anonymous.firestore.get(DocumentPath("users", target.uid))
                context.always(Check.signedOutReadDenied, signedOut == nil, "a signed-out client read \(target.uid)")
                context.recordLatency("readProfile", user: me.uid, intendedStartNanoseconds: arrival)
                continue
            }
            let postId = "p\(targetIndex)"
            if liked.contains(postId) {
                context.note(me.uid, "unlike \(postId)")
                _ = try? await ScenarioSupport.retrying { try await me.client.unlikePost(postId) }
                liked.remove(postId)
                context.recordLatency("unlike", user: me.uid, intendedStartNanoseconds: arrival)
                continue
            }
            let doubleTap = random.below(100) < p[Parameter.doubleTapPercent]
            context.note(me.uid, "like \(postId)\(doubleTap ? " ×2" : "")")
            let tap: @Sendable () async -> Void = { _ = try? await ScenarioSupport.retrying { try await me.client.likePost(postId) } }
            if doubleTap {
                async let first: Void = tap()
                async let second: Void = tap()
                _ = await (first, second)
            } else {
                await tap()
            }
            liked.insert(postId)
            context.recordLatency("like", user: me.uid, intendedStartNanoseconds: arrival)
        }
    }

    /// Always-checks on single documents: unique usernames, non-negative like counts.
    static func checkState(_ app: InspiredApp, _ context: ScenarioContext) {
        var owners: [String: String] = [:]
        for user in app.backend.firestore.query("users") {
            guard let username = user["username"]?.stringValue else { continue }
            context.always(Check.usernamesUnique, owners[username] == nil, "\(user.id) and \(owners[username] ?? "-") both have username \(username)")
            owners[username] = user.id
        }
        for post in app.backend.firestore.query("posts") {
            let count = post["stats"]?.mapValue?["likeCount"]?.intValue ?? 0
            context.always(LikeStormScenario.Check.likeCountNotNegative, count >= 0, "post \(post.id) likeCount \(count)")
        }
    }
}
