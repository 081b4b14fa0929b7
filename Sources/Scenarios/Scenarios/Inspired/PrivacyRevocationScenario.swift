import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// Inspired access revocation: users make their profiles public or private and leave or join
/// communities while others keep reading their profiles, and post. Every read is judged against
/// the states that were in effect while it ran (a register history per user, Porcupine-style, as
/// the users recorded their own changes); posts' denormalised author info must follow the live
/// profile once idle.
public struct PrivacyRevocationScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .privacyRevocation }
    /// The name `rehearse` takes.
    public let name = "privacy-revocation"
    /// One line for `rehearse list`.
    public let summary = "Inspired profiles going private and users leaving communities while others read them; author info on posts"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users, Parameter.communities, Parameter.publicPercent, Parameter.actionsPerUser, Parameter.durationSeconds,
        Parameter.readPercent, Parameter.changePercent, Parameter.quickFlipPercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["read", "privacy", "community", "post"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([InspiredVariant.authorMetadataNeverUpdated, .authorMetadataFromEvent, .joinedGroupsInProfile, .profilePageIgnoresListenError, .profileMissingFromCache, .privacySparseMerge])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.noReadAfterRevocation, Check.noWrongDenial, Check.joinedGroupsHidden, Check.authorMetadataCurrent, Check.readRevoked, Check.readGranted,
        Check.pageHidesRevokedProfile, Check.pageEndedByRevocation, Check.notFoundOnlyIfMissing, Check.pageOpenedOffline,
        RulesAllowTheApp.check,
    ]

    /// One user's access-relevant state over time, as they changed it themselves: entries in order,
    /// each the value from some instant in [start, end] on (a failed change is resolved by reading
    /// the profile back, so its entry's value is what the server holds).
    final class History: Sendable {
        struct Entry: Sendable {
            let start: UInt64
            /// `UInt64.max` while the change is in flight.
            var end: UInt64
            var isPublic: Bool
            /// `showJoinedGroups` (public whenever the profile is).
            var groups: InspiredPrivacySettings.GroupsVisibility
            var communities: Set<String>
        }
        private let entries: Mutex<[Entry]>
        init(isPublic: Bool, groups: InspiredPrivacySettings.GroupsVisibility, communities: Set<String>) {
            entries = Mutex([Entry(start: 0, end: 0, isPublic: isPublic, groups: groups, communities: communities)])
        }
        /// Records a change as it is sent, with the state it means to leave (a read running now
        /// may see it); returns its position for `finish`.
        func begin(start: UInt64, isPublic: Bool, groups: InspiredPrivacySettings.GroupsVisibility, communities: Set<String>) -> Int {
            entries.withLock { all in
                all.append(Entry(start: start, end: .max, isPublic: isPublic, groups: groups, communities: communities))
                return all.count - 1
            }
        }
        /// Resolves change `position`: the state it left (read back) and when that was known.
        func finish(_ position: Int, end: UInt64, isPublic: Bool, groups: InspiredPrivacySettings.GroupsVisibility, communities: Set<String>) {
            entries.withLock { all in
                all[position].end = end
                all[position].isPublic = isPublic
                all[position].groups = groups
                all[position].communities = communities
            }
        }
        var latest: Entry { entries.withLock { $0.last! } }
        private let unknown = Mutex(false)
        /// Whether the user's starting state could not be read back (their reads are not judged).
        var isUnknown: Bool { unknown.withLock { $0 } }
        /// Replaces the intended starting state with the one read back after set-up (nil: unknown).
        func settleInitial(_ entry: Entry?) {
            guard let entry else { unknown.withLock { $0 = true }; return }
            entries.withLock { $0[0] = entry }
        }
        var initial: Entry { entries.withLock { $0[0] } }
        /// Since when the run of private states in effect at `instant` has certainly been in effect
        /// (its first change known done; nil: a public state, or one in flight, may be in effect then).
        func privateSince(_ instant: UInt64) -> UInt64? {
            entries.withLock { all in
                guard var index = all.lastIndex(where: { $0.end <= instant }),
                      all[index...].allSatisfy({ !$0.isPublic || $0.start > instant }) else { return nil }
                while index > 0, !all[index - 1].isPublic { index -= 1 }
                return all[index].end == .max ? nil : all[index].end
            }
        }
        /// Every state that may have been in effect at some instant of [start, end].
        func possible(from start: UInt64, to end: UInt64) -> [Entry] {
            entries.withLock { all in
                let settled = all.lastIndex { $0.end < start } ?? 0
                return [all[settled]] + all[(settled + 1)...].filter { $0.start <= end }
            }
        }
    }

    static func visible(target: History.Entry, viewer: History.Entry) -> Bool {
        target.isPublic || !target.communities.isDisjoint(with: viewer.communities)
    }

    /// Whether `showJoinedGroups` lets `viewer` see `target`'s communities (docs/domain.md).
    static func groupsVisible(target: History.Entry, viewer: History.Entry) -> Bool {
        switch target.groups {
        case .public: return true
        case .groupsOnly: return !target.communities.isDisjoint(with: viewer.communities)
        case .membersOnly: return false
        }
    }

    /// Runs one seed: sign-ups, the users' reads and changes under the checks, then the end checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = InspiredApp(backend: context.backend(), variant: ScenarioSupport.variant(context, InspiredVariant.self))
        var random = Simulation.random("revocation/setup")
        let communities = (0..<p[Parameter.communities]).map { "c\($0)" }
        var histories: [History] = []
        var clients: [InspiredClient] = []
        for index in 0..<p[Parameter.users] {
            var joined: Set<String> = [communities[random.below(communities.count)]]
            if random.below(2) == 0 { joined.insert(communities[random.below(communities.count)]) }
            let isPublic = random.below(100) < p[Parameter.publicPercent]
            let groups: InspiredPrivacySettings.GroupsVisibility = isPublic ? .public : random.below(2) == 0 ? .groupsOnly : .membersOnly
            histories.append(History(isPublic: isPublic, groups: groups, communities: joined))
            clients.append(app.client(uid: "u\(index)"))
        }
        let users = histories, devices = clients
        await withTaskGroup(of: Void.self) { group in
            for index in users.indices {
                group.addTask {
                    let state = users[index].initial
                    _ = try? await ScenarioSupport.retrying {
                        try await devices[index].createProfile(displayName: "User \(index)", joinedCommunities: state.communities.sorted())
                    }
                    if state.isPublic || state.groups != .membersOnly {
                        _ = try? await ScenarioSupport.retrying { try await devices[index].updatePrivacy(Self.settings(public: state.isPublic, groups: state.groups)) }
                    }
                    _ = try? await ScenarioSupport.retrying {
                        try await devices[index].createPost(postId: "u\(index)-p0", content: "Hello", source: (type: "area", name: "Askew"))
                    }
                    // A set-up write may have failed for good: start from what the server holds.
                    users[index].settleInitial(await Self.readBack(devices[index], uid: "u\(index)").map {
                        History.Entry(start: 0, end: 0, isPublic: $0.isPublic, groups: $0.groups, communities: $0.communities)
                    })
                }
            }
        }
        let origin = Simulation.nowNanoseconds
        await withTaskGroup(of: Void.self) { group in
            for index in users.indices {
                group.addTask {
                    await Simulation.named("inspired-user-\(index)") {
                        await Self.userLoop(app, index: index, clients: devices, histories: users, communities: communities, origin: origin, context: context)
                    }
                }
            }
        }
        await app.backend.waitUntilIdle()
        guard !context.isStopped else { try context.throwIfStopped(); return }
        Self.checkAuthorMetadata(app.backend, context: context)
        try context.throwIfStopped()
    }

    static func settings(public isPublic: Bool, groups: InspiredPrivacySettings.GroupsVisibility) -> InspiredPrivacySettings {
        isPublic ? InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public)
            : InspiredPrivacySettings(isProfilePublic: false, avatarPrivacy: .groupsOnly, showJoinedGroups: groups)
    }

    /// One user's session: at each arrival a read, a privacy or community change, or a post.
    static func userLoop(
        _ app: InspiredApp, index: Int, clients: [InspiredClient], histories: [History], communities: [String], origin: UInt64, context: ScenarioContext
    ) async {
        let p = context.parameters
        var random = Simulation.random("revocation/user-\(index)")
        let uid = "u\(index)", me = clients[index], mine = histories[index]
        guard !mine.isUnknown else { return }
        var posts = 0
        var privateForGood = false
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let roll = random.below(100)
            if roll < p[Parameter.readPercent] {
                await read(app, index: index, clients: clients, histories: histories, random: &random, context: context)
                context.recordLatency("read", user: uid, intendedStartNanoseconds: arrival)
                continue
            }
            if roll < p[Parameter.readPercent] + p[Parameter.changePercent] {
                let forGood = random.below(2) == 0
                if random.below(2) == 0 && !privateForGood {
                    // Half the users who make their profile private keep it so (the others may
                    // flip back): an open page must let go of them.
                    privateForGood = forGood && mine.latest.isPublic
                    await flipPrivacy(me, uid: uid, history: mine, once: privateForGood, random: &random, context: context)
                    context.recordLatency("privacy", user: uid, intendedStartNanoseconds: arrival)
                } else {
                    await changeCommunity(me, uid: uid, history: mine, communities: communities, random: &random, context: context)
                    context.recordLatency("community", user: uid, intendedStartNanoseconds: arrival)
                }
                continue
            }
            posts += 1
            context.note(uid, "post")
            _ = try? await ScenarioSupport.retrying {
                try await me.createPost(postId: "\(uid)-p\(posts)", content: "Flow \(posts)", source: (type: "area", name: "Askew"))
            }
            context.recordLatency("post", user: uid, intendedStartNanoseconds: arrival)
        }
    }

    /// One read of another user, judged against the histories: a watched page, their communities
    /// or their profile.
    private static func read(
        _ app: InspiredApp, index: Int, clients: [InspiredClient], histories: [History], random: inout SimRandom, context: ScenarioContext
    ) async {
        var target = random.below(clients.count - 1)
        if target >= index { target += 1 }
        let kind = random.below(3)
        if kind == 2 {
            let seconds = 60 + random.below(1_141)
            await Self.watch(clients[index], viewer: index, target: target, seconds: seconds, histories: histories, backend: app.backend, context: context)
        } else if kind == 0 {
            await readGroups(clients[index], viewer: index, target: target, histories: histories, context: context)
        } else {
            await readProfile(clients[index], viewer: index, target: target, histories: histories, context: context)
        }
    }

    /// Reads `target`'s joined communities and judges whether showing (or refusing) them was allowed.
    private static func readGroups(_ me: InspiredClient, viewer index: Int, target: Int, histories: [History], context: ScenarioContext) async {
        context.note("u\(index)", "read u\(target)'s communities")
        let start = Simulation.nowNanoseconds
        let shown: Set<String>?
        do {
            shown = try await ScenarioSupport.retrying { try await me.joinedGroups(of: "u\(target)") }
        } catch InspiredError.joinedGroupsNotVisible {
            shown = nil
        } catch InspiredError.profileNotVisible {
            shown = nil
        } catch {
            return
        }
        Self.judgeGroups(shown: shown, viewer: index, target: target, start: start, end: Simulation.nowNanoseconds, histories: histories, context: context)
    }

    /// Reads `target`'s profile and judges whether serving (or refusing) it was allowed.
    private static func readProfile(_ me: InspiredClient, viewer index: Int, target: Int, histories: [History], context: ScenarioContext) async {
        context.note("u\(index)", "read u\(target)")
        let start = Simulation.nowNanoseconds
        let outcome: Bool?
        var seen = ""
        do {
            let profile = try await ScenarioSupport.retrying { try await me.profile(of: "u\(target)") }
            seen = " (it returned \(profile["privacySettings"].map { "\($0)" } ?? "no settings"), \(profile["joinedCommunities"].map { "\($0)" } ?? "no communities"))"
            outcome = true
        } catch InspiredError.profileNotVisible {
            outcome = false
        } catch {
            outcome = nil  // unavailable or not found: says nothing about access
        }
        let end = Simulation.nowNanoseconds
        if let allowed = outcome {
            Self.judge(allowed: allowed, viewer: index, target: target, start: start, end: end, histories: histories, seen: seen, context: context)
        }
    }

    /// Flips the profile between public and private, twice for a quick flip unless `once`.
    private static func flipPrivacy(
        _ me: InspiredClient, uid: String, history mine: History, once: Bool, random: inout SimRandom, context: ScenarioContext
    ) async {
        let flips = once ? 1 : random.below(100) < context.parameters[Parameter.quickFlipPercent] ? 2 : 1
        for _ in 0..<flips {
            let makePublic = !mine.latest.isPublic
            let groups: InspiredPrivacySettings.GroupsVisibility = makePublic ? .public : random.below(2) == 0 ? .groupsOnly : .membersOnly
            context.note(uid, "make profile \(makePublic ? "public" : "private, communities \(groups.rawValue)")")
            await Self.change(me, uid: uid, history: mine, isPublic: makePublic, groups: groups, communities: mine.latest.communities, context: context) {
                try await me.updatePrivacy(Self.settings(public: makePublic, groups: groups))
            }
        }
    }

    /// Leaves one of the user's communities or joins one.
    private static func changeCommunity(
        _ me: InspiredClient, uid: String, history mine: History, communities: [String], random: inout SimRandom, context: ScenarioContext
    ) async {
        let joined = mine.latest.communities
        if joined.count >= 2 || (joined.count == 1 && random.below(3) == 0) {
            let leaving = joined.sorted()[random.below(joined.count)]
            context.note(uid, "leave \(leaving)")
            await Self.change(me, uid: uid, history: mine, isPublic: mine.latest.isPublic, groups: mine.latest.groups, communities: joined.subtracting([leaving]), context: context) {
                try await me.leaveCommunity(leaving)
            }
        } else {
            let joining = communities[random.below(communities.count)]
            context.note(uid, "join \(joining)")
            await Self.change(me, uid: uid, history: mine, isPublic: mine.latest.isPublic, groups: mine.latest.groups, communities: joined.union([joining]), context: context) {
                try await me.joinCommunity(joining)
            }
        }
    }

    /// Runs one change, recorded as in flight (with the state it means to leave) from before it is
    /// sent, then resolved with the state read back from the user's own profile (an owner may
    /// always read it), so a change whose outcome the client cannot know is settled either way.
    static func change(
        _ me: InspiredClient, uid: String, history: History, isPublic: Bool, groups: InspiredPrivacySettings.GroupsVisibility, communities: Set<String>,
        context: ScenarioContext, _ body: @escaping @Sendable () async throws -> Void
    ) async {
        let position = history.begin(start: Simulation.nowNanoseconds, isPublic: isPublic, groups: groups, communities: communities)
        do { try await ScenarioSupport.retrying(body) } catch { RulesAllowTheApp.judge(error, user: uid, action: "change of their own profile", context) }
        // Unresolved (the network refused 30 reads): the change stays in flight for the oracle,
        // so both the old and the intended state remain possible from now on.
        guard let settled = await readBack(me, uid: uid) else { return }
        history.finish(position, end: Simulation.nowNanoseconds, isPublic: settled.isPublic, groups: settled.groups, communities: settled.communities)
    }

    /// The user's own access state as the server holds it (an owner may always read it), or nil
    /// if the network refused 30 reads.
    static func readBack(_ me: InspiredClient, uid: String) async -> (isPublic: Bool, groups: InspiredPrivacySettings.GroupsVisibility, communities: Set<String>)? {
        var profile: DocumentSnapshot?
        var joined: Set<String>?
        for _ in 0..<10 where profile == nil {
            profile = try? await ScenarioSupport.retrying { try await me.profile(of: uid) }
        }
        for _ in 0..<10 where joined == nil {
            joined = try? await ScenarioSupport.retrying { try await me.joinedGroups(of: uid) }
        }
        guard let profile, let joined else { return nil }
        let settings = profile["privacySettings"]?.mapValue
        let isPublic = settings?["isProfilePublic"] == .bool(true) || settings?["avatarPrivacy"] == .string("public")
        let groups = InspiredPrivacySettings.GroupsVisibility(rawValue: settings?["showJoinedGroups"]?.stringValue ?? "") ?? .membersOnly
        return (isPublic, groups, joined)
    }

    /// Judges one read against every combination of states in effect while it ran.
    static func judge(
        allowed: Bool, viewer: Int, target: Int, start: UInt64, end: UInt64, histories: [History], seen: String, context: ScenarioContext
    ) {
        guard !histories[target].isUnknown else { return }
        let targets = histories[target].possible(from: start, to: end)
        let viewers = histories[viewer].possible(from: start, to: end)
        let verdicts = targets.flatMap { t in viewers.map { v in visible(target: t, viewer: v) } }
        let initially = visible(target: histories[target].initial, viewer: histories[viewer].initial)
        if allowed {
            context.always(Check.noReadAfterRevocation, verdicts.contains(true),
                           "u\(viewer) read u\(target) but no state in effect while the read ran allowed it: target \(targets.map(describe)), viewer \(viewers.map(describe))\(seen)")
            context.sometimes(Check.readGranted, !initially)
        } else {
            context.always(Check.noWrongDenial, verdicts.contains(false),
                           "u\(viewer) was refused u\(target) but every state in effect allowed it: target \(targets.map(describe)), viewer \(viewers.map(describe))")
            context.sometimes(Check.readRevoked, initially)
        }
    }

    /// How long an open page may still show a profile its viewer can no longer see: the listener's
    /// longest delivery (a latency tail) after its longest reconnect, and a margin.
    static let pageStalenessNanoseconds = UInt64(
        (BackendFaults.default.listenerLatency.tailMax + BackendFaults.default.listenerDisconnectMax + .seconds(10)).nanoseconds)

    /// Opens `target`'s profile page for `seconds`, then judges what it shows as it closes: a
    /// profile private for longer than the page's staleness (made private by a change of the
    /// profile, which the listener is told of) is shown only if some viewer and target state
    /// since it went private let the viewer see it. Not judged across a network incident.
    static func watch(
        _ me: InspiredClient, viewer: Int, target: Int, seconds: Int, histories: [History], backend: Backend, context: ScenarioContext
    ) async {
        let page = me.profilePage(of: "u\(target)")
        context.note("u\(viewer)", "open u\(target)'s profile page for \(seconds) s")
        let profile = DocumentPath("users", "u\(target)")
        page.open { page in
            context.always(Check.notFoundOnlyIfMissing, !page.saysNotFound || backend.firestore.liveFields(profile) == nil,
                           "u\(viewer)'s page says u\(target)'s account does not exist; the server has it")
        }
        await ScenarioSupport.sleep(milliseconds: seconds * 1_000)
        context.sometimes(Check.pageOpenedOffline, page.openedOffline)
        let shown = page.shown != nil, ended = page.endedWith
        page.close()
        if let ended { context.note("u\(viewer)", "u\(target)'s page ended: \(ended)") }
        context.sometimes(Check.pageEndedByRevocation, ended != nil)
        let end = Simulation.nowNanoseconds
        guard shown, !histories[target].isUnknown, end > pageStalenessNanoseconds,
              let since = histories[target].privateSince(end - pageStalenessNanoseconds),
              !networkIncident(backend, from: since, to: end) else { return }
        let targets = histories[target].possible(from: since + 1, to: end)
        let viewers = histories[viewer].possible(from: since + 1, to: end)
        let allowed = targets.contains { t in viewers.contains { v in visible(target: t, viewer: v) } }
        context.always(Check.pageHidesRevokedProfile, allowed,
                       "u\(viewer)'s page still shows u\(target), private since \(Double(since) / 1e9) s with no community shared: target \(targets.map(describe)), viewer \(viewers.map(describe))")
    }

    /// Whether a client-network or slow-network outage of the world overlapped [`from`, `to`]
    /// (simulator nanoseconds): a listener's reconnects and deliveries then have no bound the page
    /// could be judged by.
    static func networkIncident(_ backend: Backend, from: UInt64, to: UInt64) -> Bool {
        let elapsed = backend.env.clock.elapsedNanoseconds
        let offset = Int64(Simulation.nowNanoseconds) - elapsed  // simulator time at the backend's elapsed 0
        return [Outage.Service.clientNetwork, .slowNetwork].contains { service in
            backend.outages.windows(of: service, through: elapsed).contains { window in
                window.start + offset <= Int64(to) && window.end + offset >= Int64(from)
            }
        }
    }

    /// Judges one read of a user's communities: shown only if some state in effect let the viewer
    /// see them, and then as one of the lists in effect; refused only if some state refused it.
    static func judgeGroups(shown: Set<String>?, viewer: Int, target: Int, start: UInt64, end: UInt64, histories: [History], context: ScenarioContext) {
        guard !histories[target].isUnknown else { return }
        let targets = histories[target].possible(from: start, to: end)
        let viewers = histories[viewer].possible(from: start, to: end)
        let verdicts = targets.flatMap { t in viewers.map { v in groupsVisible(target: t, viewer: v) } }
        if let shown {
            context.always(Check.joinedGroupsHidden, verdicts.contains(true) && targets.contains { $0.communities == shown },
                           "u\(viewer) saw u\(target)'s communities \(shown.sorted()) but no state in effect while the read ran showed them: target \(targets.map(describe)), viewer \(viewers.map(describe))")
        } else {
            context.always(Check.noWrongDenial, verdicts.contains(false),
                           "u\(viewer) was refused u\(target)'s communities but every state in effect showed them: target \(targets.map(describe)), viewer \(viewers.map(describe))")
        }
    }

    static func describe(_ entry: History.Entry) -> String {
        "\(entry.isPublic ? "public" : "private") \(entry.communities.sorted()) groups \(entry.groups.rawValue)"
    }

    /// Once idle: each post's author info is what its author's live profile says, computed here
    /// from the profile (not by the app's function).
    static func checkAuthorMetadata(_ backend: Backend, context: ScenarioContext) {
        for post in backend.firestore.query("posts") {
            guard let author = post["author"]?.mapValue, let authorId = author["id"]?.stringValue,
                  let profile = backend.firestore.liveFields(DocumentPath("users", authorId)) else { continue }
            let avatar = profile["privacySettings"]?.mapValue?["avatarPrivacy"] ?? .null
            let thumbnail = avatar == .string("public") ? profile["thumbnailUrl"] ?? .null : .null
            let expected: Fields = ["id": .string(authorId), "username": profile["username"] ?? .null, "avatarPrivacy": avatar, "thumbnailUrl": thumbnail]
            context.eventually(Check.authorMetadataCurrent, author == expected,
                               "post \(post.id) shows author \(author.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }) but the profile says avatarPrivacy=\(avatar) thumbnailUrl=\(thumbnail)")
        }
    }
}
