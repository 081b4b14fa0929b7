@testable import Domain
@testable import SimulatedFirebase
import Testing

/// Inspired studios: shadow seeding from the Places catalogue and the claiming flow, call by call.
@Suite("Inspired studios")
struct InspiredStudioTests {
    private func deploy(_ variant: InspiredVariant = .careful, places count: Int = 3) -> (InspiredApp, Backend, InspiredPlaces) {
        let backend = makeBackend(seed: 1)
        let app = InspiredApp(backend: backend, variant: variant)
        let places = InspiredPlaces(count: count, origin: backend.env.clock.now, openingSpan: .seconds(3_600), seed: 42)
        app.deployStudios(places: places, seedEvery: .seconds(1_800))
        return (app, backend, places)
    }

    private func seed(_ backend: Backend, at time: Timestamp) async throws {
        try await backend.functions.runScheduled("seedShadowStudios", at: time)
    }

    @Test("The catalogue is a pure function of seed, index and time")
    func catalogue() {
        let origin = Timestamp(unixNanoseconds: 1_000_000_000_000)
        let places = InspiredPlaces(count: 6, origin: origin, openingSpan: .seconds(3_000), seed: 7)
        // A third open at the start; the rest over the span, in order.
        #expect((0..<6).map { places.opensAt($0) <= origin } == [true, true, false, false, false, false])
        #expect(places.opensAt(5) < origin + .seconds(3_000) && places.opensAt(2) < places.opensAt(3))
        // Revisions change on the hour boundaries offset by 7 minutes.
        #expect(places.revision(at: origin) == 0)
        #expect(places.revision(at: origin + .seconds(7 * 60)) == 1)
        #expect(places.revision(at: origin + .seconds(67 * 60 - 1)) == 1)
        #expect(places.revision(at: origin + .seconds(67 * 60)) == 2)
        #expect(places.listing(1, revision: 3) == InspiredPlaces(count: 6, origin: origin, openingSpan: .seconds(3_000), seed: 7).listing(1, revision: 3))
        #expect((0..<20).map { places.listing(0, revision: $0).rating }.allSatisfy { (3.0...5.0).contains($0) })
        #expect(Set((0..<20).map { places.listing(0, revision: $0).rating }).count > 3, "ratings change between revisions")
        #expect(places.claimCode("studio_0") != places.claimCode("studio_1"))
    }

    @Test("Seeding creates shadows; a claim survives re-seeding; the owner's about is kept, Places fields refresh")
    func claimSurvivesReseed() async throws {
        let (app, backend, places) = deploy()
        let start = backend.env.clock.now
        try await seed(backend, at: start)
        #expect(backend.firestore.query("studios").map(\.id) == ["studio_0"])
        let owner = app.client(uid: "alice")
        try await owner.claimStudio("studio_0", code: places.claimCode("studio_0"))
        try await owner.updateStudioAbout("studio_0", about: "Hot yoga by the park")
        await #expect(throws: InspiredError.studioAlreadyClaimed(studioId: "studio_0")) {
            try await app.client(uid: "bob").claimStudio("studio_0", code: places.claimCode("studio_0"))
        }
        await #expect(throws: InspiredError.claimCodeInvalid(studioId: "studio_0")) {
            try await app.client(uid: "mallory").claimStudio("studio_0", code: "123")
        }
        // A repeated claim by the owner (a retried call) succeeds.
        try await owner.claimStudio("studio_0", code: places.claimCode("studio_0"))
        try await backend.env.clock.sleep(for: .seconds(2 * 3_600))
        try await seed(backend, at: backend.env.clock.now)
        let studio = try #require(backend.firestore.liveFields(DocumentPath("studios", "studio_0")))
        #expect(studio["isClaimed"] == .bool(true) && studio["ownerId"] == .string("alice"))
        #expect(studio["about"] == .string("Hot yoga by the park"))
        let revision = places.revision(at: backend.env.clock.now)
        #expect(studio["placesRevision"] == .int(revision) && studio["rating"] == .double(places.listing(0, revision: revision).rating))
        #expect(backend.firestore.query("studios").count == 3, "every place open by now is seeded")
    }

    @Test("Rules: only the owner edits, and only about; nobody creates or claims through the client")
    func rules() async throws {
        let (app, backend, places) = deploy()
        try await seed(backend, at: backend.env.clock.now)
        try await app.client(uid: "alice").claimStudio("studio_0", code: places.claimCode("studio_0"))
        await #expect(throws: InspiredError.self) { try await app.client(uid: "bob").updateStudioAbout("studio_0", about: "mine now") }
        let alice = backend.client(auth: AuthContext(uid: "alice"), label: "alice")
        #expect(await backendError { try await alice.updateData(DocumentPath("studios", "studio_0"), ["ownerId": .set(.string("bob"))]) }?.code == "PERMISSION_DENIED")
        let bob = backend.client(auth: AuthContext(uid: "bob"), label: "bob")
        #expect(await backendError { try await bob.setData(DocumentPath("studios", "studio_9"), ["isClaimed": .bool(true), "ownerId": .string("bob")]) }?.code == "PERMISSION_DENIED")
    }

    @Test("Variant reseed-overwrites-claim: the next seeding run makes a claimed studio a shadow again")
    func reseedVariant() async throws {
        let (app, backend, places) = deploy(.reseedOverwritesClaim)
        try await seed(backend, at: backend.env.clock.now)
        try await app.client(uid: "alice").claimStudio("studio_0", code: places.claimCode("studio_0"))
        try await seed(backend, at: backend.env.clock.now)
        let studio = try #require(backend.firestore.liveFields(DocumentPath("studios", "studio_0")))
        #expect(studio["isClaimed"] == .bool(false) && studio["ownerId"] == .null)
    }
}

/// Posts' denormalised author info follows the live profile (careful) or not (the variants).
@Suite("Inspired author metadata")
struct InspiredAuthorMetadataTests {
    @Test("A post carries the thumbnail URL only while the avatar is public; going private removes it")
    func thumbnailFollowsPrivacy() async throws {
        let backend = makeBackend(seed: 1)
        let app = InspiredApp(backend: backend)
        let author = app.client(uid: "a")
        try await author.createProfile(displayName: "Ana", joinedCommunities: ["area_askew"])
        try await author.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        try await author.createPost(postId: "p1", content: "Flow", source: ("area", "Askew"))
        await backend.waitUntilIdle()
        #expect(backend.firestore.liveFields(DocumentPath("posts", "p1"))?["author"]?.mapValue?["thumbnailUrl"] == .string("https://storage.example/avatars/a_thumb.jpg"))
        try await author.updatePrivacy(.defaults)
        await backend.waitUntilIdle()
        let post = try #require(backend.firestore.liveFields(DocumentPath("posts", "p1"))?["author"]?.mapValue)
        #expect(post["thumbnailUrl"] == .null && post["avatarPrivacy"] == .string("groups-only"))
    }

    @Test("Variant author-metadata-never-updated keeps the thumbnail after the avatar goes groups-only")
    func neverUpdatedVariant() async throws {
        let backend = makeBackend(seed: 1)
        let app = InspiredApp(backend: backend, variant: .authorMetadataNeverUpdated)
        let author = app.client(uid: "a")
        try await author.createProfile(displayName: "Ana", joinedCommunities: ["area_askew"])
        try await author.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        try await author.createPost(postId: "p1", content: "Flow", source: ("area", "Askew"))
        try await author.updatePrivacy(.defaults)
        await backend.waitUntilIdle()
        let post = try #require(backend.firestore.liveFields(DocumentPath("posts", "p1"))?["author"]?.mapValue)
        #expect(post["thumbnailUrl"] == .string("https://storage.example/avatars/a_thumb.jpg") && post["avatarPrivacy"] == .string("public"))
    }

    @Test("Leaving the only shared community revokes a groups-only profile's read")
    func leavingRevokes() async throws {
        let backend = makeBackend(seed: 1)
        let app = InspiredApp(backend: backend)
        try await app.client(uid: "a").createProfile(displayName: "Ana", joinedCommunities: ["c1"])
        try await app.client(uid: "b").createProfile(displayName: "Ben", joinedCommunities: ["c1"])
        _ = try await app.client(uid: "b").profile(of: "a")
        try await app.client(uid: "b").leaveCommunity("c1")
        await #expect(throws: InspiredError.profileNotVisible(userId: "a")) { _ = try await app.client(uid: "b").profile(of: "a") }
    }
}

/// `showJoinedGroups` (§ 2.1.1) enforced by the rules on `memberships/{uid}`.
@Suite("Inspired showJoinedGroups")
struct InspiredJoinedGroupsTests {
    @Test("public shows the list to anyone signed in; groups-only to a member of a shared community; members-only to nobody else")
    func visibility() async throws {
        let backend = makeBackend(seed: 1)
        let app = InspiredApp(backend: backend)
        try await app.client(uid: "a").createProfile(displayName: "Ana", joinedCommunities: ["c1", "c2"])
        try await app.client(uid: "b").createProfile(displayName: "Ben", joinedCommunities: ["c1"])
        try await app.client(uid: "c").createProfile(displayName: "Cai", joinedCommunities: ["c3"])
        #expect(try await app.client(uid: "a").joinedGroups(of: "a") == ["c1", "c2"])
        // Default: members-only.
        await #expect(throws: InspiredError.joinedGroupsNotVisible(userId: "a")) { _ = try await app.client(uid: "b").joinedGroups(of: "a") }
        try await app.client(uid: "a").updatePrivacy(InspiredPrivacySettings(isProfilePublic: false, avatarPrivacy: .groupsOnly, showJoinedGroups: .groupsOnly))
        #expect(try await app.client(uid: "b").joinedGroups(of: "a") == ["c1", "c2"])
        await #expect(throws: InspiredError.joinedGroupsNotVisible(userId: "a")) { _ = try await app.client(uid: "c").joinedGroups(of: "a") }
        try await app.client(uid: "a").updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        #expect(try await app.client(uid: "c").joinedGroups(of: "a") == ["c1", "c2"])
        // The profile no longer carries the list.
        #expect(backend.firestore.liveFields(DocumentPath("users", "a"))?["joinedCommunities"] == nil)
    }

    @Test("Variant joined-groups-in-profile: a public avatar exposes a members-only list")
    func literalVariantLeaks() async throws {
        let backend = makeBackend(seed: 1)
        let app = InspiredApp(backend: backend, variant: .joinedGroupsInProfile)
        try await app.client(uid: "a").createProfile(displayName: "Ana", joinedCommunities: ["c1"])
        try await app.client(uid: "c").createProfile(displayName: "Cai", joinedCommunities: ["c3"])
        try await app.client(uid: "a").updatePrivacy(InspiredPrivacySettings(isProfilePublic: false, avatarPrivacy: .public, showJoinedGroups: .membersOnly))
        #expect(try await app.client(uid: "c").joinedGroups(of: "a") == ["c1"])
    }
}
