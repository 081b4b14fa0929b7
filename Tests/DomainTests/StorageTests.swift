import Domain
import SimulatedFirebase
import Testing

/// The simulated Cloud Storage (docs/domain.md, "Cloud Storage") and the three apps' Storage
/// rules against tables of known answers written from the design documents, then the careful
/// upload flows end to end on a backend without faults (and with every upload failing).
@Suite struct StorageTests {
    static func request(_ email: String?, _ operation: RuleOperation, _ path: String, resource: StorageObject? = nil, upload: StorageUpload? = nil,
                        lookup: @escaping @Sendable (DocumentPath) -> Fields? = { _ in nil }) -> StorageRuleRequest {
        StorageRuleRequest(auth: email.map { AuthContext(uid: $0, email: $0) }, operation: operation, path: path, resource: resource, upload: upload, lookup: lookup)
    }

    static func object(_ path: String, author: String) -> StorageObject {
        StorageObject(path: path, sizeBytes: 1_000, contentType: "image/jpeg", metadata: ["authorEmail": author], generation: 1, updated: Timestamp(unixNanoseconds: 0))
    }

    static let mebibyte = 1_048_576

    /// KNB § Storage Structure / § Storage Rules: (who, operation, path, upload, stored object's author, careful answer).
    static let knbTable: [(String?, RuleOperation, String, StorageUpload?, String?, Bool)] = {
        let post = "social_posts/p1/0.jpg"
        func jpeg(_ bytes: Int, author: String? = "a@knb.org") -> StorageUpload {
            StorageUpload(sizeBytes: bytes, contentType: "image/jpeg", metadata: author.map { ["authorEmail": $0] } ?? [:])
        }
        return [
            ("a@knb.org", .create, post, jpeg(2 * mebibyte), nil, true),
            ("a@knb.org", .create, post, jpeg(3 * mebibyte), nil, true),
            ("a@knb.org", .create, post, jpeg(3 * mebibyte + 1), nil, false),
            ("a@knb.org", .create, post, jpeg(4 * mebibyte), nil, false),
            ("a@knb.org", .create, post, StorageUpload(sizeBytes: 1_000, contentType: "image/png", metadata: ["authorEmail": "a@knb.org"]), nil, true),
            ("a@knb.org", .create, post, StorageUpload(sizeBytes: 1_000, contentType: "application/pdf", metadata: ["authorEmail": "a@knb.org"]), nil, false),
            ("a@knb.org", .create, post, jpeg(1_000, author: "b@knb.org"), nil, false),
            ("a@knb.org", .create, post, jpeg(1_000, author: nil), nil, false),
            (nil, .create, post, jpeg(1_000), nil, false),
            ("a@knb.org", .update, post, jpeg(1_000), "a@knb.org", false),
            ("a@knb.org", .get, post, nil, "a@knb.org", true),
            ("b@knb.org", .get, post, nil, "a@knb.org", true),
            (nil, .get, post, nil, "a@knb.org", false),
            ("a@knb.org", .delete, post, nil, "a@knb.org", true),
            ("b@knb.org", .delete, post, nil, "a@knb.org", false),
            ("a@knb.org", .create, "uploads/x.jpg", jpeg(1_000), nil, false),
            ("a@knb.org", .create, "social_posts/p1/nested/0.jpg", jpeg(1_000), nil, false),
            ("a@knb.org", .get, "users/a@knb.org/avatar.jpg", nil, "a@knb.org", false),
        ]
    }()

    @Test func knbStorageRulesMatchTheTable() {
        let rules = KNBRules.storageRules()
        for (who, operation, path, upload, author, expected) in Self.knbTable {
            let resource = author.map { Self.object(path, author: $0) }
            #expect(rules.allows(Self.request(who, operation, path, resource: resource, upload: upload)) == expected,
                    "\(who ?? "signed out") \(operation) \(path) \(upload.map { "\($0.sizeBytes) \($0.contentType)" } ?? "")")
        }
    }

    @Test func noSizeCheckVariantDiffersOnlyOnOversizeImages() {
        let rules = KNBRules.storageRules(checksSize: false)
        for (who, operation, path, upload, author, expected) in Self.knbTable {
            let resource = author.map { Self.object(path, author: $0) }
            let oversize = operation == .create && (upload?.sizeBytes ?? 0) > 3 * Self.mebibyte && path.hasPrefix("social_posts/p1/0")
            #expect(rules.allows(Self.request(who, operation, path, resource: resource, upload: upload)) == (expected || oversize), "\(operation) \(path)")
        }
    }

    @Test func inspiredAvatarRules() {
        let rules = InspiredApp.storageRules
        let profiles: [String: Fields] = [
            "users/pub": ["privacySettings": ["avatarPrivacy": "public", "isProfilePublic": true]],
            "users/grp": ["privacySettings": ["avatarPrivacy": "groups-only", "isProfilePublic": false]],
            "memberships/grp": ["communities": ["studio-x"]],
            "memberships/friend": ["communities": ["studio-x", "area-1"]],
            "memberships/stranger": ["communities": ["area-2"]],
        ]
        let lookup: @Sendable (DocumentPath) -> Fields? = { profiles[$0.description] }
        func allows(_ uid: String?, _ operation: RuleOperation, _ path: String, _ upload: StorageUpload? = nil) -> Bool {
            rules.allows(StorageRuleRequest(auth: uid.map { AuthContext(uid: $0) }, operation: operation, path: path, resource: nil, upload: upload, lookup: lookup))
        }
        let jpeg = StorageUpload(sizeBytes: 40_000, contentType: "image/jpeg")
        #expect(allows("pub", .create, "images/avatars/pub_r1_thumb.jpg", jpeg))
        #expect(!allows("pub", .create, "images/avatars/grp_r1_thumb.jpg", jpeg), "a file named for another user")
        #expect(!allows("pub", .create, "images/avatars/pub_r1.pdf", StorageUpload(sizeBytes: 1_000, contentType: "application/pdf")))
        #expect(allows("pub", .create, "images/avatars/pub_r1_standard.jpg", StorageUpload(sizeBytes: 5 * Self.mebibyte, contentType: "image/jpeg")))
        #expect(!allows("pub", .create, "images/avatars/pub_r1_standard.jpg", StorageUpload(sizeBytes: 5 * Self.mebibyte + 1, contentType: "image/jpeg")))
        #expect(allows("stranger", .get, "images/avatars/pub_r1_thumb.jpg"), "public avatar: anyone signed in (§ 5.6 case 1)")
        #expect(!allows(nil, .get, "images/avatars/pub_r1_thumb.jpg"), "signed out (§ 5.6 case 4)")
        #expect(allows("friend", .get, "images/avatars/grp_r1_thumb.jpg"), "groups-only, shared community (case 2)")
        #expect(!allows("stranger", .get, "images/avatars/grp_r1_thumb.jpg"), "groups-only, no overlap (case 3)")
        #expect(allows("grp", .get, "images/avatars/grp_r1_thumb.jpg"), "the owner")
        #expect(!allows("friend", .delete, "images/avatars/grp_r1_thumb.jpg"))
        #expect(allows("grp", .delete, "images/avatars/grp_r1_thumb.jpg"))
        #expect(!allows("stranger", .get, "images/studios/pub_r1_thumb.jpg"), "other features: the owner only")
        #expect(!allows("pub", .create, "avatars/pub_thumb.jpg", jpeg), "outside images/")
    }

    @Test func stampbookPhotoRules() {
        let rules = StampbookApp.storageRules
        func allows(_ uid: String?, _ operation: RuleOperation, _ path: String, _ upload: StorageUpload? = nil) -> Bool {
            rules.allows(StorageRuleRequest(auth: uid.map { AuthContext(uid: $0) }, operation: operation, path: path, resource: nil, upload: upload))
        }
        let jpeg = StorageUpload(sizeBytes: 2 * Self.mebibyte, contentType: "image/jpeg")
        #expect(allows("u1", .create, "stamp_photos/u1/s1/b1_0.jpg", jpeg))
        #expect(!allows("u2", .create, "stamp_photos/u1/s1/b1_0.jpg", jpeg))
        #expect(!allows("u1", .update, "stamp_photos/u1/s1/b1_0.jpg", jpeg))
        #expect(!allows("u1", .create, "stamp_photos/u1/s1/b1_0.mov", StorageUpload(sizeBytes: 1_000, contentType: "video/quicktime")))
        #expect(!allows("u1", .create, "stamp_photos/u1/s1/b1_0.jpg", StorageUpload(sizeBytes: 10 * Self.mebibyte + 1, contentType: "image/jpeg")))
        #expect(allows("u2", .get, "stamp_photos/u1/s1/b1_0.jpg"))
        #expect(!allows(nil, .get, "stamp_photos/u1/s1/b1_0.jpg"))
        #expect(allows("u1", .delete, "stamp_photos/u1/s1/b1_0.jpg") && !allows("u2", .delete, "stamp_photos/u1/s1/b1_0.jpg"))
    }

    @Test func bucketRequestsAnswer403Or404AndCountGenerations() async throws {
        let backend = makeBackend()
        KNBApp(backend: backend).backend.storage.put("seed.txt", StorageUpload(sizeBytes: 1, contentType: "text/plain"))
        let alice = backend.storageClient(for: backend.client(auth: AuthContext(uid: "a@knb.org", email: "a@knb.org"), label: "a"), label: "a")
        let bob = backend.storageClient(for: backend.client(auth: AuthContext(uid: "b@knb.org", email: "b@knb.org"), label: "b"), label: "b")
        let image = StorageUpload(sizeBytes: 1_000, contentType: "image/jpeg", metadata: ["authorEmail": "a@knb.org"])
        let first = try await alice.upload("social_posts/p1/0.jpg", image)
        let second = try await alice.upload("social_posts/p1/1.jpg", image)
        #expect(second.generation > first.generation)
        #expect(await backendError { try await alice.upload("social_posts/p1/0.jpg", image) } == .permissionDenied(operation: "storage update", path: "social_posts/p1/0.jpg"))
        #expect(try await bob.download("social_posts/p1/0.jpg") == first)
        #expect(await backendError { _ = try await bob.download("social_posts/p1/9.jpg") } == .objectNotFound(path: "social_posts/p1/9.jpg"))
        #expect(await backendError { try await bob.delete("social_posts/p1/0.jpg") } == .permissionDenied(operation: "storage delete", path: "social_posts/p1/0.jpg"))
        try await alice.delete("social_posts/p1/0.jpg")
        #expect(backend.storage.objects.map(\.path) == ["seed.txt", "social_posts/p1/1.jpg"])
        #expect(await backendError { _ = try await alice.download("seed.txt") } == .permissionDenied(operation: "storage get", path: "seed.txt"))
        #expect(backend.coverage.counts.contains { $0.name == "storage: social_posts/{postId}/{fileName}" && $0.invocations == 7 && $0.failures == 2 })
    }

    @Test func failedUploadsStoreNothingAndAreObservedInTheLedger() async throws {
        var faults = BackendFaults.none
        faults.storageUploadFailureProbability = 1
        let backend = makeBackend(faults: faults)
        let app = KNBApp(backend: backend)
        let alice = app.client(email: "a@knb.org", name: "A")
        try await alice.register()
        await #expect(throws: KNBError.backend(.unavailable("every image upload failed; the post was not written"))) {
            try await alice.createPost("", images: [KNBPostImage(sizeBytes: 1_000)])
        }
        let post = try await alice.createPost("text stays", images: [KNBPostImage(sizeBytes: 1_000), KNBPostImage(sizeBytes: 2_000)])
        #expect(post.storedImages == 0 && post.droppedImages == 2 && post.uploadAttempts == 2 * KNBClient.imageUploadAttempts)
        #expect(backend.storage.objects.isEmpty)
        let tally = try #require(backend.faultLedger.tallies[.storageUploadFailure])
        #expect(tally.opportunities == 9 && tally.observed == 9 && tally.expectedBillionths == 9_000_000_000)
    }

    @Test func knbPostListsExactlyItsStoredImages() async throws {
        let backend = makeBackend()
        let app = KNBApp(backend: backend)
        let alice = app.client(email: "a@knb.org", name: "A")
        try await alice.register()
        let post = try await alice.createPost("two photos", images: [KNBPostImage(sizeBytes: 900_000), KNBPostImage(sizeBytes: 1_200_000, width: 768, height: 1024)])
        let stored = await backend.firestore.get(post.path)
        let media = (stored["mediaItems"]?.arrayValue ?? []).compactMap(\.mapValue)
        #expect(media.compactMap { $0["storagePath"]?.stringValue } == ["social_posts/\(post.path.id)/0.jpg", "social_posts/\(post.path.id)/1.jpg"])
        #expect(media.map { $0["fileSizeBytes"] } == [.int(900_000), .int(1_200_000)])
        #expect(backend.storage.objects.map { $0.metadata["authorEmail"] } == ["a@knb.org", "a@knb.org"])
        await #expect(throws: KNBError.tooManyImages(5)) { try await alice.createPost("x", images: Array(repeating: KNBPostImage(sizeBytes: 1), count: 5)) }
    }

    @Test func inspiredAvatarUpdateReplacesAndDeletesTheOldVersion() async throws {
        let backend = makeBackend()
        let app = InspiredApp(backend: backend)
        let phone = app.client(uid: "ana", device: "phone"), tablet = app.client(uid: "ana", device: "tablet")
        try await phone.createProfile(displayName: "Ana")
        try await phone.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        try await app.seedAvatar(userId: "ana", thumbBytes: 10_000, standardBytes: 100_000)
        #expect(backend.storage.objects.map(\.path) == ["images/avatars/ana_r0_standard.jpg", "images/avatars/ana_r0_thumb.jpg"])
        try await phone.updateAvatar(thumbBytes: 11_000, standardBytes: 110_000)
        try await tablet.updateAvatar(thumbBytes: 12_000, standardBytes: 120_000)
        #expect(backend.storage.objects.map(\.path) == ["images/avatars/ana_r2_standard.jpg", "images/avatars/ana_r2_thumb.jpg"])
        let profile = await backend.firestore.get(DocumentPath("users", "ana"))
        let thumb = try #require(backend.storage.object(at: "images/avatars/ana_r2_thumb.jpg"))
        #expect(profile["thumbnailUrl"] == .string(CloudStorage.downloadURL(for: thumb)))
        let reader = app.client(uid: "ben")
        #expect(try await reader.avatar(of: "ana") == .image(path: "images/avatars/ana_r2_thumb.jpg", generation: 5), "thumb r2 is the fifth write: r0, r1, r2, thumb before standard")
    }

    /// MODEL_RULES §28 (docs/domain.md, "Cloud Storage"): a download URL reads its object without
    /// the rules while its token is the object's; a tokenless or revoked URL gets 403, a missing
    /// object 404. Serving an object the rules refuse the fetcher is counted.
    @Test func aDownloadURLReadsWithoutTheRulesUntilItsTokenIsRevoked() async throws {
        let backend = makeBackend()
        _ = KNBApp(backend: backend)
        let object = backend.storage.put("social_posts/p1/0.jpg", StorageUpload(sizeBytes: 1_000, contentType: "image/jpeg", metadata: ["authorEmail": "a@knb.org"]))
        let signedOut = backend.storageClient(for: backend.client(auth: nil, label: "anon"), label: "anon")
        let url = CloudStorage.downloadURL(for: object)
        #expect(await backendError { _ = try await signedOut.download(object.path) } == .permissionDenied(operation: "storage get", path: object.path))
        #expect(try await signedOut.fetch(url: url) == object)
        #expect(backend.faultLedger.tallies[.downloadURLBypass]?.observed == 1)
        let tokenless = CloudStorage.downloadURL(for: object.path)
        #expect(await backendError { _ = try await signedOut.fetch(url: tokenless) } == .permissionDenied(operation: "storage download URL (token not valid)", path: object.path))
        let revoked = try #require(backend.storage.revokeDownloadTokens(object.path))
        #expect(revoked.downloadToken != object.downloadToken && revoked.generation == object.generation)
        #expect(await backendError { _ = try await signedOut.fetch(url: url) } == .permissionDenied(operation: "storage download URL (token not valid)", path: object.path))
        #expect(try await signedOut.fetch(url: CloudStorage.downloadURL(for: revoked)) == revoked)
        _ = backend.storage.remove(object.path)
        #expect(await backendError { _ = try await signedOut.fetch(url: url) } == .objectNotFound(path: object.path))
    }

    /// § 5.3.1 counts on a 403 once a user goes private: the careful design revokes the avatar's
    /// tokens when it stops being public, so a URL a stranger copied while it was public stops
    /// working; `avatar-url-outlives-privacy` revokes nothing and the stranger keeps the image.
    @Test(arguments: [InspiredVariant.careful, .avatarURLOutlivesPrivacy])
    func anAvatarURLCopiedWhilePublicStopsWorkingWhenTheAvatarGoesPrivate(_ variant: InspiredVariant) async throws {
        let backend = makeBackend()
        let app = InspiredApp(backend: backend, variant: variant)
        let ana = app.client(uid: "ana"), stranger = app.client(uid: "ben")
        try await ana.createProfile(displayName: "Ana")
        try await ana.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        try await app.seedAvatar(userId: "ana", thumbBytes: 10_000, standardBytes: 100_000)
        let url = try #require(try await stranger.profile(of: "ana")["thumbnailUrl"]?.stringValue)
        #expect(try await stranger.storage.fetch(url: url).path == "images/avatars/ana_r0_thumb.jpg")
        try await ana.updatePrivacy(.defaults)
        await backend.waitUntilIdle()
        let path = "images/avatars/ana_r0_thumb.jpg"
        #expect(await backendError { _ = try await stranger.storage.download(path) } == .permissionDenied(operation: "storage get", path: path),
                "the SDK's read is judged by the rules either way")
        let served = try? await stranger.storage.fetch(url: url)
        #expect((served != nil) == (variant == .avatarURLOutlivesPrivacy))
        #expect(backend.faultLedger.tallies[.downloadURLBypass]?.observed == (variant == .careful ? nil : 1))
    }

    /// Found by a sweep (media-uploads seed 2892, pct:2, swarm): the private owner's profile was never
    /// created (every retry lost to network failures), and the seeded avatar stayed as two objects no
    /// document names (`no-orphaned-object`).
    @Test func seedingAnAvatarWithoutAProfileLeavesNoObjects() async throws {
        let backend = makeBackend()
        let app = InspiredApp(backend: backend)
        await #expect(throws: InspiredError.self) { try await app.seedAvatar(userId: "ghost", thumbBytes: 10_000, standardBytes: 100_000) }
        #expect(backend.storage.objects.isEmpty)
    }

    @Test func deleteThenUploadLeavesNoAvatarWhenTheUploadFails() async throws {
        var faults = BackendFaults.none
        faults.storageUploadFailureProbability = 1
        let backend = makeBackend(faults: faults)
        let app = InspiredApp(backend: backend, variant: .avatarDeleteThenUpload)
        let ana = app.client(uid: "ana")
        try await ana.createProfile(displayName: "Ana")
        try await ana.updatePrivacy(InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public))
        try await app.seedAvatar(userId: "ana", thumbBytes: 10_000, standardBytes: 100_000)
        await #expect(throws: InspiredError.self) { try await ana.updateAvatar(thumbBytes: 11_000, standardBytes: 110_000) }
        #expect(backend.storage.objects.isEmpty)
        let shown = try await app.client(uid: "ben").avatar(of: "ana")
        #expect(shown == .broken("404 for images/avatars/ana_thumb.jpg, and the profile still names it"))
    }

    @Test func carefulAvatarKeepsTheOldOneWhenTheUploadFails() async throws {
        var faults = BackendFaults.none
        faults.storageUploadFailureProbability = 1
        let backend = makeBackend(faults: faults)
        let app = InspiredApp(backend: backend)
        let ana = app.client(uid: "ana")
        try await ana.createProfile(displayName: "Ana")
        try await app.seedAvatar(userId: "ana", thumbBytes: 10_000, standardBytes: 100_000)
        await #expect(throws: InspiredError.backend(.unavailable("upload of images/avatars/ana_r1_thumb.jpg failed mid-transfer; nothing was stored"))) {
            try await ana.updateAvatar(thumbBytes: 11_000, standardBytes: 110_000)
        }
        #expect(backend.storage.objects.map(\.path) == ["images/avatars/ana_r0_standard.jpg", "images/avatars/ana_r0_thumb.jpg"])
        await #expect(throws: InspiredError.profileNotVisible(userId: "ana"), "private by default: the profile read is refused (§ 5.3.1)") {
            try await app.client(uid: "ben").avatar(of: "ana")
        }
    }

    @Test func stampbookCollectListsOnlyStoredPhotosAndCleansUpARefusedCollect() async throws {
        let backend = makeBackend()
        let app = StampbookApp(backend: backend)
        try await app.addStamp(stampId: "s1", name: "S1")
        let ana = app.client(uid: "ana")
        let photos = (0..<4).map { StorageUpload(sizeBytes: 500_000 + $0, contentType: "image/jpeg") }
        let report = try await ana.collectStamp("s1", photos: photos)
        #expect(report.stored == 4 && report.dropped == 0 && report.attempts == 4)
        let record = await backend.firestore.get(DocumentPath("users", "ana").child("collected_stamps", "s1"))
        let urls = (record["photoUrls"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(urls == (0..<4).map { CloudStorage.downloadURL(for: "stamp_photos/ana/s1/b1_\($0).jpg") })
        #expect(await backend.firestore.get(DocumentPath("feed_posts", "ana_s1"))["photoUrls"] == record["photoUrls"])
        await #expect(throws: StampbookError.alreadyCollected(userId: "ana", stampId: "s1")) { try await ana.collectStamp("s1", photos: photos) }
        #expect(backend.storage.objects.count == 4, "the refused collect deleted its own four photos, not the first one's")
        #expect(backend.storage.objects.allSatisfy { $0.path.contains("/b1_") })
    }
}
