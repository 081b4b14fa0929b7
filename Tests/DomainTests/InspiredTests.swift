@testable import Domain
@testable import SimulatedFirebase
import Synchronization
import Testing

private func makeInspired(_ variant: InspiredVariant = .careful, digits: Int = 4, seed: UInt64 = 1, probe: InspiredProbe = InspiredProbe()) -> (InspiredApp, Backend) {
    let backend = makeBackend(seed: seed)
    let app = InspiredApp(backend: backend, variant: variant, usernameSuffixDigits: digits, probe: probe)
    return (app, backend)
}

private func device(_ backend: Backend, _ uid: String) -> FirestoreClient {
    backend.client(auth: AuthContext(uid: uid), label: uid)
}

private func onboard(_ app: InspiredApp, _ backend: Backend, _ uid: String, name: String = "Jane Doe", communities: [String] = []) async throws {
    try await app.client(uid: uid).createProfile(displayName: name, joinedCommunities: communities)
}

private func username(_ backend: Backend, _ uid: String) async -> String? {
    await backend.firestore.get(InspiredApp.user(uid))["username"]?.stringValue
}

@Suite("Inspired")
struct InspiredTests {
    @Test("Security case 1: a public avatar is readable by any signed-in user")
    func securityPublicAvatar() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a", communities: ["area_askew"])
        try await onboard(app, backend, "b")
        try await app.client(uid: "a").updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        let profile = try await device(backend, "b").get(InspiredApp.user("a"))
        #expect(profile["profilePictureUrl"] != nil)
    }

    @Test("Security case 2: community overlap grants access to a groups-only avatar")
    func securityCommunityOverlap() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a", communities: ["area_askew"])
        try await onboard(app, backend, "b", communities: ["area_askew"])
        let profile = try await app.client(uid: "b").profile(of: "a")
        #expect(profile["profilePictureUrl"] != nil)
    }

    @Test("Security case 3: no overlap is Permission Denied")
    func securityNoOverlap() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a", communities: ["area_askew"])
        try await onboard(app, backend, "b", communities: ["area_chelsea"])
        let error = await backendError { _ = try await device(backend, "b").get(InspiredApp.user("a")) }
        #expect(error?.code == "PERMISSION_DENIED")
        await #expect(throws: InspiredError.profileNotVisible(userId: "a")) { _ = try await app.client(uid: "b").profile(of: "a") }
        #expect(InspiredError.profileNotVisible(userId: "a").description == "This profile is now private.")
    }

    @Test("Security case 4: signed-out callers cannot read any profile")
    func securityUnauthenticated() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a")
        try await app.client(uid: "a").updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        let error = await backendError { _ = try await backend.client(auth: nil, label: "anon").get(InspiredApp.user("a")) }
        #expect(error?.code == "PERMISSION_DENIED")
        await #expect(throws: InspiredError.unauthenticated) { _ = try await app.client(uid: nil).profile(of: "a") }
    }

    @Test("Defaults are private; a public profile needs a public avatar (app and rules)")
    func publicProfileConstraint() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a")
        let privacy = await backend.firestore.get(InspiredApp.user("a"))["privacySettings"]?.mapValue
        #expect(privacy?["isProfilePublic"] == .bool(false))
        #expect(privacy?["avatarPrivacy"] == .string("groups-only"))
        await #expect(throws: InspiredError.publicProfileRequiresPublicAvatar) {
            try await app.client(uid: "a").updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .groupsOnly, showJoinedGroups: .public))
        }
        let bypass = await backendError {
            try await device(backend, "a").updateData(InspiredApp.user("a"), ["privacySettings.isProfilePublic": .set(true)])
        }
        #expect(bypass?.code == "PERMISSION_DENIED")
    }

    @Test("Onboarding rejections are typed")
    func onboardingRejections() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a")
        await #expect(throws: InspiredError.profileAlreadyExists(userId: "a")) { try await onboard(app, backend, "a") }
        await #expect(throws: InspiredError.displayNameEmpty) { try await onboard(app, backend, "b", name: "") }
        await #expect(throws: InspiredError.bioTooLong(length: 281, maximum: 280)) {
            try await app.client(uid: "b").createProfile(displayName: "B", bio: String(repeating: "x", count: 281))
        }
        await #expect(throws: InspiredError.unauthenticated) {
            try await app.client(uid: nil).createProfile(displayName: "C")
        }
    }

    @Test("Usernames are displayName#NNNN, unique, and stable under duplicate trigger runs")
    func usernames() async throws {
        let (app, backend) = makeInspired()
        for uid in ["a", "b", "c"] { try await onboard(app, backend, uid) }
        await backend.waitUntilIdle()
        var names: [String] = []
        for uid in ["a", "b", "c"] { names.append(try #require(await username(backend, uid))) }
        #expect(Set(names).count == 3)
        #expect(names.allSatisfy { $0.hasPrefix("jane_doe#") && $0.count == "jane_doe#".count + 4 })
        try await app.assignUsername(userId: "a")  // a duplicate delivery
        #expect(await username(backend, "a") == names[0])
        let forged = await backendError { try await device(backend, "a").updateData(InspiredApp.user("a"), ["username": .set("admin#0001")]) }
        #expect(forged?.code == "PERMISSION_DENIED")
    }

    @Test("Username collisions retry with another suffix; an exhausted space is a typed error")
    func usernameCollisionRetry() async throws {
        let (app, backend) = makeInspired(digits: 1)
        for uid in ["a", "b", "c", "d"] { try await onboard(app, backend, uid) }
        await backend.waitUntilIdle()
        var names: Set<String> = []
        for uid in ["a", "b", "c", "d"] { if let name = await username(backend, uid) { names.insert(name) } }
        #expect(names.count == 4)
        let (small, smallBackend) = makeInspired(digits: 1)
        for index in 0..<10 { try await smallBackend.firestore.create(DocumentPath("usernames", "jane_doe#\(index)"), ["userId": "x"]) }
        try await smallBackend.firestore.create(InspiredApp.user("z"), ["displayName": "Jane Doe"])
        await smallBackend.waitUntilIdle()  // the trigger gives up and its event is lost
        #expect(await username(smallBackend, "z") == nil)
        #expect(smallBackend.functions.lostEvents.contains { $0.contains("No free username for \"Jane Doe\"") })
        await #expect(throws: InspiredError.usernameSpaceExhausted(displayName: "Jane Doe", attempts: 10)) { try await small.assignUsername(userId: "z") }
    }

    @Test("Concurrent sign-ups with one display name get distinct usernames")
    func concurrentUsernamesCareful() async throws {
        let barrier = AppsTestBarrier(count: 2)
        let (app, backend) = makeInspired(probe: InspiredProbe(beforeUsernameClaim: { _ in await barrier.arrive() }))
        async let first: Void = onboard(app, backend, "a")
        async let second: Void = onboard(app, backend, "b")
        _ = try await (first, second)
        await backend.waitUntilIdle()
        let a = await username(backend, "a"), b = await username(backend, "b")
        #expect(a != nil && b != nil)
        #expect(a != b)
    }

    @Test("Variant unreserved-username gives two concurrent sign-ups the same username")
    func concurrentUsernamesUnreserved() async throws {
        let barrier = AppsTestBarrier(count: 2)
        let (app, backend) = makeInspired(.unreservedUsername, probe: InspiredProbe(betweenUsernameCheckAndWrite: { _ in await barrier.arrive() }))
        async let first: Void = onboard(app, backend, "a")
        async let second: Void = onboard(app, backend, "b")
        _ = try await (first, second)
        await backend.waitUntilIdle()
        let a = await username(backend, "a")
        #expect(a != nil)
        #expect(a == (await username(backend, "b")))
    }

    @Test("Likes: likes/{uid} and likeCount in one transaction; once per user")
    func likes() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a")
        await backend.waitUntilIdle()
        try await app.client(uid: "a").createPost(postId: "p1", content: "Morning flow", source: ("area", "Askew"))
        try await app.client(uid: "b").likePost("p1")
        await #expect(throws: InspiredError.alreadyLiked(userId: "b", postId: "p1")) { try await app.client(uid: "b").likePost("p1") }
        try await app.client(uid: "c").likePost("p1")
        let post = await backend.firestore.get(InspiredApp.post("p1"))
        #expect(post["stats"]?.mapValue?["likeCount"] == .int(2))
        #expect(post["author"]?.mapValue?["username"] == .string(await username(backend, "a")!))
        #expect(try await app.client(uid: "b").likedPostIds(among: ["p1", "p2"]) == ["p1"])
        try await app.client(uid: "b").unlikePost("p1")
        await #expect(throws: InspiredError.notLiked(userId: "b", postId: "p1")) { try await app.client(uid: "b").unlikePost("p1") }
        #expect(await backend.firestore.get(InspiredApp.post("p1"))["stats"]?.mapValue?["likeCount"] == .int(1))
        await #expect(throws: InspiredError.postNotFound(postId: "p9")) { try await app.client(uid: "b").likePost("p9") }
    }

    @Test("Concurrent likes keep likeCount equal to the likes sub-collection (aborted ones count for neither)")
    func concurrentLikes() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a")
        try await app.client(uid: "a").createPost(postId: "p1", content: "x", source: ("area", "Askew"))
        let successes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<4 { group.addTask { (try? await app.client(uid: "u\(index)").likePost("p1")) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes >= 1)
        let likeCount = await backend.firestore.get(InspiredApp.post("p1"))["stats"]?.mapValue?["likeCount"]
        #expect(likeCount == .int(Int64(successes)))
        #expect(backend.firestore.query("posts/p1/likes").count == successes)
    }

    @Test("Variant like-without-transaction counts a double like twice")
    func likeWithoutTransactionVariant() async throws {
        let (app, backend) = makeInspired(.likeWithoutTransaction)
        try await onboard(app, backend, "a")
        try await app.client(uid: "a").createPost(postId: "p1", content: "x", source: ("area", "Askew"))
        try await app.client(uid: "b").likePost("p1")
        try await app.client(uid: "b").likePost("p1")
        #expect(await backend.firestore.get(InspiredApp.post("p1"))["stats"]?.mapValue?["likeCount"] == .int(2))
        #expect(backend.firestore.query("posts/p1/likes").count == 1)
    }

    @Test("Comments count once per client id; long posts are rejected")
    func comments() async throws {
        let (app, backend) = makeInspired()
        try await onboard(app, backend, "a")
        try await app.client(uid: "a").createPost(postId: "p1", content: "x", source: ("community", "studio_123"))
        try await app.client(uid: "b").addComment(postId: "p1", commentId: "c1", text: "See you there")
        try await app.client(uid: "b").addComment(postId: "p1", commentId: "c1", text: "See you there")
        #expect(await backend.firestore.get(InspiredApp.post("p1"))["stats"]?.mapValue?["commentCount"] == .int(1))
        await #expect(throws: InspiredError.contentTooLong(length: 501, maximum: 500)) {
            try await app.client(uid: "a").createPost(postId: "p2", content: String(repeating: "a", count: 501), source: ("area", "Askew"))
        }
        await #expect(throws: InspiredError.profileNotFound(userId: "nobody")) {
            try await app.client(uid: "nobody").createPost(postId: "p3", content: "x", source: ("area", "Askew"))
        }
    }

    @Test("Same inputs and seed give the same usernames")
    func determinism() async throws {
        var runs: [[String?]] = []
        for _ in 0..<2 {
            let (app, backend) = makeInspired(seed: 5)
            for uid in ["a", "b"] { try await onboard(app, backend, uid) }
            await backend.waitUntilIdle()
            runs.append([await username(backend, "a"), await username(backend, "b")])
        }
        #expect(runs[0] == runs[1])
    }

    @Test("Every variant has a kebab-case name and a description")
    func variantNames() {
        for variant in InspiredVariant.allCases {
            #expect(InspiredVariant(rawValue: variant.rawValue) == variant)
            #expect(!variant.summary.isEmpty)
        }
    }
}

/// A post created before the username trigger ran gets its `author.username` once it is assigned;
/// the seed denormalises the author (username included) into posts and comments for rendering.
@Suite("Inspired username back-fill")
struct InspiredUsernameBackfillTests {
    @Test("Posts and comments written before the username exists get it once the trigger assigns it")
    func postsBeforeTheTriggerGetTheUsername() async throws {
        let gate = AppsTestGate()
        let (app, backend) = makeInspired(probe: InspiredProbe(beforeUsernameClaim: { _ in await gate.pass() }))
        try await onboard(app, backend, "a")
        #expect(await gate.waitUntilHolding())
        try await app.client(uid: "a").createPost(postId: "p1", content: "first flow", source: (type: "area", name: "Askew"))
        try await app.client(uid: "a").addComment(postId: "p1", commentId: "c1", text: "me again")
        #expect(await backend.firestore.get(InspiredApp.post("p1"))["author"]?.mapValue?["username"] == .null)
        await gate.open()
        await backend.waitUntilIdle()
        let name = try #require(await username(backend, "a"))
        #expect(await backend.firestore.get(InspiredApp.post("p1"))["author"]?.mapValue?["username"] == .string(name))
        #expect(await backend.firestore.get(InspiredApp.comment("p1", "c1"))["author"]?.mapValue?["username"] == .string(name))
    }
}

@Suite("Inspired profile page")
struct InspiredProfilePageTests {
    /// A page on a public profile keeps showing it through the owner's edits; made private (no
    /// shared community), its listener ends with PERMISSION_DENIED and the careful page clears,
    /// while `profile-page-ignores-listen-error` keeps showing the last snapshot.
    @Test(arguments: [(InspiredVariant.careful, false), (.profilePageIgnoresListenError, true)])
    func revocationEndsThePage(variant: InspiredVariant, keepsShowing: Bool) async throws {
        let (app, backend) = makeInspired(variant)
        try await onboard(app, backend, "a", communities: ["area_askew"])
        try await onboard(app, backend, "b", communities: ["area_chelsea"])
        let owner = app.client(uid: "a")
        try await owner.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        let page = app.client(uid: "b").profilePage(of: "a")
        page.open()
        try await backend.env.clock.sleep(for: .seconds(1))
        await backend.waitUntilIdle()
        #expect(page.shown != nil && page.endedWith == nil)
        try await owner.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .groupsOnly))
        try await backend.env.clock.sleep(for: .seconds(1))
        await backend.waitUntilIdle()
        #expect(page.shown != nil && page.endedWith == nil, "an edit of a public profile ended the page: \(String(describing: page.endedWith))")
        try await owner.updatePrivacy(InspiredPrivacySettings(isProfilePublic: false, avatarPrivacy: .groupsOnly, showJoinedGroups: .membersOnly))
        try await backend.env.clock.sleep(for: .seconds(1))
        await backend.waitUntilIdle()
        #expect(page.endedWith?.code == "PERMISSION_DENIED")
        #expect((page.shown != nil) == keepsShowing)
        page.close()
    }

    /// A page opened while its listener's connection is down first gets the device's copy, which
    /// does not hold the profile: the careful page keeps "Connecting…" until the server answers,
    /// `profile-missing-from-cache` says the account does not exist.
    @Test(arguments: [(InspiredVariant.careful, false), (.profileMissingFromCache, true)])
    func aPageOpenedOfflineWaitsForTheServer(variant: InspiredVariant, saysMissing: Bool) async throws {
        var faults = BackendFaults.none
        faults.listenerDisconnectProbability = 1
        let backend = makeBackend(faults: faults)
        let app = InspiredApp(backend: backend, variant: variant, usernameSuffixDigits: 4, probe: InspiredProbe())
        try await onboard(app, backend, "a", communities: ["area_askew"])
        try await onboard(app, backend, "b", communities: ["area_askew"])
        let saidMissing = Mutex(false)
        let page = app.client(uid: "b").profilePage(of: "a")
        page.open { page in if page.saysNotFound { saidMissing.withLock { $0 = true } } }
        await backend.waitUntilIdle()
        #expect(page.openedOffline)
        #expect(saidMissing.withLock { $0 } == saysMissing)
        #expect(page.shown != nil && !page.saysNotFound, "the server's snapshot shows the profile")
        page.close()
    }
}
