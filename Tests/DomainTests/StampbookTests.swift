@testable import Domain
@testable import SimulatedFirebase
import Testing

private func makeStampbook(_ variant: StampbookVariant = .careful, seed: UInt64 = 1) async throws -> (StampbookApp, Backend) {
    let backend = makeBackend(seed: seed)
    let app = StampbookApp(backend: backend, variant: variant)
    try await app.addStamp(stampId: "golden-gate", name: "Golden Gate Bridge")
    return (app, backend)
}

private func device(_ backend: Backend, _ uid: String) -> FirestoreClient {
    backend.client(auth: AuthContext(uid: uid), label: uid)
}

@Suite("Stampbook")
struct StampbookTests {
    @Test("A stamp is collected once per user; statistics stay consistent")
    func collectOnce() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.client(uid: "u1").collectStamp("golden-gate")
        await #expect(throws: StampbookError.alreadyCollected(userId: "u1", stampId: "golden-gate")) {
            try await app.client(uid: "u1").collectStamp("golden-gate")
        }
        try await app.client(uid: "u2").collectStamp("golden-gate")
        let statistics = await app.statistics(of: "golden-gate")
        #expect(statistics.totalCollectors == 2)
        #expect(statistics.collectorUserIds == ["u1", "u2"])
        let feed = try await app.client(uid: "u1").feed()
        #expect(feed.map(\.id).sorted() == ["u1_golden-gate", "u2_golden-gate"])
        #expect(feed.allSatisfy { $0["isCollection"] == .bool(true) })
    }

    @Test("Concurrent double collect counts one collector")
    func concurrentCollect() async throws {
        let (app, backend) = try await makeStampbook()
        let client = app.client(uid: "u1")
        async let first: Bool = (try? await client.collectStamp("golden-gate")) != nil
        async let second: Bool = (try? await client.collectStamp("golden-gate")) != nil
        let successes = [await first, await second].filter { $0 }.count
        #expect(successes == 1)
        let statistics = await app.statistics(of: "golden-gate")
        #expect(statistics.totalCollectors == 1)
        #expect(statistics.collectorUserIds == ["u1"])
    }

    @Test("Variant increment-collectors drifts on a double collect")
    func incrementCollectorsVariant() async throws {
        let (app, backend) = try await makeStampbook(.incrementCollectors)
        try await app.client(uid: "u1").collectStamp("golden-gate")
        try await app.client(uid: "u1").collectStamp("golden-gate")
        let statistics = await app.statistics(of: "golden-gate")
        #expect(statistics.totalCollectors == 2)
        #expect(statistics.collectorUserIds == ["u1"])
    }

    @Test("Collect rejections: unknown stamp, signed out")
    func collectRejections() async throws {
        let (app, backend) = try await makeStampbook()
        await #expect(throws: StampbookError.stampNotFound(stampId: "nowhere")) {
            try await app.client(uid: "u1").collectStamp("nowhere")
        }
        await #expect(throws: StampbookError.unauthenticated) {
            try await app.client(uid: nil).collectStamp("golden-gate")
        }
    }

    @Test("Security rules: nobody writes another user's collected stamps")
    func rulesProtectCollections() async throws {
        let (_, backend) = try await makeStampbook()
        let error = await backendError {
            try await device(backend, "u2").setData(StampbookApp.collected("u1", "golden-gate"), ["collectedAt": .int(0)])
        }
        #expect(error?.code == "PERMISSION_DENIED")
    }

    @Test("Likes are de-duplicated: repeats are no-ops, likeCount equals likes")
    func likes() async throws {
        let (app, backend) = try await makeStampbook()
        let author = app.client(uid: "u1")
        try await author.createPost(postId: "p1", stampId: "golden-gate", caption: "fog")
        try await app.client(uid: "u2").setLike(postId: "p1", liked: true)
        try await app.client(uid: "u2").setLike(postId: "p1", liked: true)
        try await app.client(uid: "u3").setLike(postId: "p1", liked: true)
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(2))
        try await app.client(uid: "u2").setLike(postId: "p1", liked: false)
        try await app.client(uid: "u2").setLike(postId: "p1", liked: false)
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(1))
        await #expect(throws: StampbookError.postNotFound(postId: "p9")) {
            try await app.client(uid: "u2").setLike(postId: "p9", liked: true)
        }
    }

    @Test("Rapid concurrent like taps land one like")
    func concurrentLikeTaps() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "")
        let client = app.client(uid: "u2")
        async let a = client.setLike(postId: "p1", liked: true)
        async let b = client.setLike(postId: "p1", liked: true)
        _ = try await [a, b]
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(1))
    }

    @Test("Variant blind-like-increment over-counts repeats and goes negative")
    func blindLikeVariant() async throws {
        let (app, backend) = try await makeStampbook(.blindLikeIncrement)
        try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "")
        try await app.client(uid: "u1").createPost(postId: "p2", stampId: "golden-gate", caption: "")
        try await app.client(uid: "u2").setLike(postId: "p1", liked: true)
        try await app.client(uid: "u2").setLike(postId: "p1", liked: true)
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(2))
        try await app.client(uid: "u2").setLike(postId: "p2", liked: false)
        #expect(await backend.firestore.get(StampbookApp.post("p2"))["likeCount"] == .int(-1))
    }

    @Test("Comments: client ids make retries idempotent; commentCount follows; only authors delete")
    func comments() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "")
        try await app.client(uid: "u2").addComment(postId: "p1", commentId: "u2-1", text: "nice")
        try await app.client(uid: "u2").addComment(postId: "p1", commentId: "u2-1", text: "nice")
        try await app.client(uid: "u3").addComment(postId: "p1", commentId: "u3-1", text: "wow")
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["commentCount"] == .int(2))
        await #expect(throws: StampbookError.notCommentAuthor(userId: "u3", commentId: "u2-1")) {
            try await app.client(uid: "u3").deleteComment(postId: "p1", commentId: "u2-1")
        }
        try await app.client(uid: "u2").deleteComment(postId: "p1", commentId: "u2-1")
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["commentCount"] == .int(1))
        await #expect(throws: StampbookError.commentNotFound(postId: "p1", commentId: "u2-1")) {
            try await app.client(uid: "u2").deleteComment(postId: "p1", commentId: "u2-1")
        }
        await #expect(throws: StampbookError.postNotFound(postId: "p9")) {
            try await app.client(uid: "u2").addComment(postId: "p9", commentId: "x", text: "?")
        }
    }

    @Test("Feed: newest first, Only You filter, caption limit")
    func feed() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "first")
        _ = try await backend.env.clock.sleep(for: .seconds(5))
        try await app.client(uid: "u2").createPost(postId: "p2", stampId: "golden-gate", caption: "second")
        #expect(try await app.client(uid: "u1").feed().map(\.id) == ["p2", "p1"])
        #expect(try await app.client(uid: "u1").feed(onlyUserId: "u1").map(\.id) == ["p1"])
        await #expect(throws: StampbookError.captionTooLong(length: 501, maximum: 500)) {
            try await app.client(uid: "u1").createPost(postId: "p3", stampId: "golden-gate", caption: String(repeating: "a", count: 501))
        }
    }

    @Test("Follows keep both counts in step")
    func follows() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.client(uid: "u1").setFollowing("u2", following: true)
        #expect(await backend.firestore.get(DocumentPath("users", "u1"))["followingCount"] == .int(1))
        #expect(await backend.firestore.get(DocumentPath("users", "u2"))["followerCount"] == .int(1))
        await #expect(throws: StampbookError.alreadyFollowing(userId: "u1", targetUserId: "u2")) {
            try await app.client(uid: "u1").setFollowing("u2", following: true)
        }
        try await app.client(uid: "u1").setFollowing("u2", following: false)
        #expect(await backend.firestore.get(DocumentPath("users", "u2"))["followerCount"] == .int(0))
        await #expect(throws: StampbookError.notFollowing(userId: "u1", targetUserId: "u2")) {
            try await app.client(uid: "u1").setFollowing("u2", following: false)
        }
        await #expect(throws: StampbookError.cannotFollowYourself(userId: "u1")) {
            try await app.client(uid: "u1").setFollowing("u1", following: true)
        }
    }

    @Test("Same inputs and seed give the same documents")
    func determinism() async throws {
        var dumps: [[String]] = []
        for _ in 0..<2 {
            let (app, backend) = try await makeStampbook(seed: 9)
            try await app.client(uid: "u1").collectStamp("golden-gate")
            try await app.client(uid: "u2").setLike(postId: "u1_golden-gate", liked: true)
            try await app.client(uid: "u2").addComment(postId: "u1_golden-gate", commentId: "c1", text: "hi")
            dumps.append(backend.firestore.query("feed_posts").map { "\($0.id) \($0.fields!.canonicalDescription)" })
        }
        #expect(dumps[0] == dumps[1])
    }

    @Test("Every variant has a kebab-case name and a description")
    func variantNames() {
        for variant in StampbookVariant.allCases {
            #expect(StampbookVariant(rawValue: variant.rawValue) == variant)
            #expect(!variant.summary.isEmpty)
        }
    }
}
