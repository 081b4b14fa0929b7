import Testing
@testable import Domain

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
        try await app.collectStamp("golden-gate", as: device(backend, "u1"))
        await #expect(throws: StampbookError.alreadyCollected(userId: "u1", stampId: "golden-gate")) {
            try await app.collectStamp("golden-gate", as: device(backend, "u1"))
        }
        try await app.collectStamp("golden-gate", as: device(backend, "u2"))
        let statistics = await app.statistics(of: "golden-gate")
        #expect(statistics.totalCollectors == 2)
        #expect(statistics.collectorUserIds == ["u1", "u2"])
        let feed = try await app.feed(as: device(backend, "u1"))
        #expect(feed.map(\.id).sorted() == ["u1_golden-gate", "u2_golden-gate"])
        #expect(feed.allSatisfy { $0["isCollection"] == .bool(true) })
    }

    @Test("Concurrent double collect counts one collector")
    func concurrentCollect() async throws {
        let (app, backend) = try await makeStampbook()
        let client = device(backend, "u1")
        async let first: Bool = (try? await app.collectStamp("golden-gate", as: client)) != nil
        async let second: Bool = (try? await app.collectStamp("golden-gate", as: client)) != nil
        let successes = [await first, await second].filter { $0 }.count
        #expect(successes == 1)
        let statistics = await app.statistics(of: "golden-gate")
        #expect(statistics.totalCollectors == 1)
        #expect(statistics.collectorUserIds == ["u1"])
    }

    @Test("Variant increment-collectors drifts on a double collect")
    func incrementCollectorsVariant() async throws {
        let (app, backend) = try await makeStampbook(.incrementCollectors)
        try await app.collectStamp("golden-gate", as: device(backend, "u1"))
        try await app.collectStamp("golden-gate", as: device(backend, "u1"))
        let statistics = await app.statistics(of: "golden-gate")
        #expect(statistics.totalCollectors == 2)
        #expect(statistics.collectorUserIds == ["u1"])
    }

    @Test("Collect rejections: unknown stamp, signed out")
    func collectRejections() async throws {
        let (app, backend) = try await makeStampbook()
        await #expect(throws: StampbookError.stampNotFound(stampId: "nowhere")) {
            try await app.collectStamp("nowhere", as: device(backend, "u1"))
        }
        await #expect(throws: StampbookError.unauthenticated) {
            try await app.collectStamp("golden-gate", as: backend.client(auth: nil, label: "anon"))
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
        let author = device(backend, "u1")
        try await app.createPost(postId: "p1", stampId: "golden-gate", caption: "fog", as: author)
        try await app.setLike(postId: "p1", liked: true, as: device(backend, "u2"))
        try await app.setLike(postId: "p1", liked: true, as: device(backend, "u2"))
        try await app.setLike(postId: "p1", liked: true, as: device(backend, "u3"))
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(2))
        try await app.setLike(postId: "p1", liked: false, as: device(backend, "u2"))
        try await app.setLike(postId: "p1", liked: false, as: device(backend, "u2"))
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(1))
        await #expect(throws: StampbookError.postNotFound(postId: "p9")) {
            try await app.setLike(postId: "p9", liked: true, as: device(backend, "u2"))
        }
    }

    @Test("Rapid concurrent like taps land one like")
    func concurrentLikeTaps() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.createPost(postId: "p1", stampId: "golden-gate", caption: "", as: device(backend, "u1"))
        let client = device(backend, "u2")
        async let a = app.setLike(postId: "p1", liked: true, as: client)
        async let b = app.setLike(postId: "p1", liked: true, as: client)
        _ = try await [a, b]
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(1))
    }

    @Test("Variant blind-like-increment over-counts repeats and goes negative")
    func blindLikeVariant() async throws {
        let (app, backend) = try await makeStampbook(.blindLikeIncrement)
        try await app.createPost(postId: "p1", stampId: "golden-gate", caption: "", as: device(backend, "u1"))
        try await app.createPost(postId: "p2", stampId: "golden-gate", caption: "", as: device(backend, "u1"))
        try await app.setLike(postId: "p1", liked: true, as: device(backend, "u2"))
        try await app.setLike(postId: "p1", liked: true, as: device(backend, "u2"))
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["likeCount"] == .int(2))
        try await app.setLike(postId: "p2", liked: false, as: device(backend, "u2"))
        #expect(await backend.firestore.get(StampbookApp.post("p2"))["likeCount"] == .int(-1))
    }

    @Test("Comments: client ids make retries idempotent; commentCount follows; only authors delete")
    func comments() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.createPost(postId: "p1", stampId: "golden-gate", caption: "", as: device(backend, "u1"))
        try await app.addComment(postId: "p1", commentId: "u2-1", text: "nice", as: device(backend, "u2"))
        try await app.addComment(postId: "p1", commentId: "u2-1", text: "nice", as: device(backend, "u2"))
        try await app.addComment(postId: "p1", commentId: "u3-1", text: "wow", as: device(backend, "u3"))
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["commentCount"] == .int(2))
        await #expect(throws: StampbookError.notCommentAuthor(userId: "u3", commentId: "u2-1")) {
            try await app.deleteComment(postId: "p1", commentId: "u2-1", as: device(backend, "u3"))
        }
        try await app.deleteComment(postId: "p1", commentId: "u2-1", as: device(backend, "u2"))
        #expect(await backend.firestore.get(StampbookApp.post("p1"))["commentCount"] == .int(1))
        await #expect(throws: StampbookError.commentNotFound(postId: "p1", commentId: "u2-1")) {
            try await app.deleteComment(postId: "p1", commentId: "u2-1", as: device(backend, "u2"))
        }
        await #expect(throws: StampbookError.postNotFound(postId: "p9")) {
            try await app.addComment(postId: "p9", commentId: "x", text: "?", as: device(backend, "u2"))
        }
    }

    @Test("Feed: newest first, Only You filter, caption limit")
    func feed() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.createPost(postId: "p1", stampId: "golden-gate", caption: "first", as: device(backend, "u1"))
        _ = try await backend.env.clock.sleep(for: .seconds(5))
        try await app.createPost(postId: "p2", stampId: "golden-gate", caption: "second", as: device(backend, "u2"))
        #expect(try await app.feed(as: device(backend, "u1")).map(\.id) == ["p2", "p1"])
        #expect(try await app.feed(onlyUserId: "u1", as: device(backend, "u1")).map(\.id) == ["p1"])
        await #expect(throws: StampbookError.captionTooLong(length: 501, maximum: 500)) {
            try await app.createPost(postId: "p3", stampId: "golden-gate", caption: String(repeating: "a", count: 501), as: device(backend, "u1"))
        }
    }

    @Test("Follows keep both counts in step")
    func follows() async throws {
        let (app, backend) = try await makeStampbook()
        try await app.setFollowing("u2", following: true, as: device(backend, "u1"))
        #expect(await backend.firestore.get(DocumentPath("users", "u1"))["followingCount"] == .int(1))
        #expect(await backend.firestore.get(DocumentPath("users", "u2"))["followerCount"] == .int(1))
        await #expect(throws: StampbookError.alreadyFollowing(userId: "u1", targetUserId: "u2")) {
            try await app.setFollowing("u2", following: true, as: device(backend, "u1"))
        }
        try await app.setFollowing("u2", following: false, as: device(backend, "u1"))
        #expect(await backend.firestore.get(DocumentPath("users", "u2"))["followerCount"] == .int(0))
        await #expect(throws: StampbookError.notFollowing(userId: "u1", targetUserId: "u2")) {
            try await app.setFollowing("u2", following: false, as: device(backend, "u1"))
        }
        await #expect(throws: StampbookError.cannotFollowYourself(userId: "u1")) {
            try await app.setFollowing("u1", following: true, as: device(backend, "u1"))
        }
    }

    @Test("Same inputs and seed give the same documents")
    func determinism() async throws {
        var dumps: [[String]] = []
        for _ in 0..<2 {
            let (app, backend) = try await makeStampbook(seed: 9)
            try await app.collectStamp("golden-gate", as: device(backend, "u1"))
            try await app.setLike(postId: "u1_golden-gate", liked: true, as: device(backend, "u2"))
            try await app.addComment(postId: "u1_golden-gate", commentId: "c1", text: "hi", as: device(backend, "u2"))
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
