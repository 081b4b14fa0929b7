@testable import Domain
@testable import SimulatedFirebase
import Testing

/// Stampbook's post deletion and "Only You" copies, and the social variants' flaws, one call at a time.
@Suite("Stampbook post deletion, comments and follows")
struct StampbookPostDeletionTests {
    private func makeApp(_ variant: StampbookVariant = .careful) async throws -> (StampbookApp, Backend) {
        let backend = makeBackend(seed: 1)
        let app = StampbookApp(backend: backend, variant: variant)
        try await app.addStamp(stampId: "golden-gate", name: "Golden Gate Bridge")
        return (app, backend)
    }

    private func ids(_ backend: Backend, _ collection: String) -> [String] { backend.firestore.query(collection).map(\.id).sorted() }

    @Test("A post has its users/{uid}/posts copy; deleting it removes the copy, comments and likes")
    func deleteRemovesEverything() async throws {
        let (app, backend) = try await makeApp()
        let author = app.client(uid: "u1")
        try await author.createPost(postId: "p1", stampId: "golden-gate", caption: "fog")
        try await author.createPost(postId: "p2", stampId: "golden-gate", caption: "sun")
        #expect(try await author.ownPostIds() == ["p2", "p1"] || ids(backend, "users/u1/posts") == ["p1", "p2"])
        try await app.client(uid: "u2").addComment(postId: "p1", commentId: "c1", text: "nice")
        try await app.client(uid: "u3").setLike(postId: "p1", liked: true)
        try await author.deletePost(postId: "p1")
        #expect(ids(backend, "feed_posts") == ["p2"])
        #expect(ids(backend, "users/u1/posts") == ["p2"])
        #expect(ids(backend, "feed_posts/p1/comments").isEmpty)
        #expect(ids(backend, "feed_posts/p1/likes").isEmpty)
        // A retry of a delete that already landed is success; a comment on the deleted post is refused.
        try await author.deletePost(postId: "p1")
        await #expect(throws: StampbookError.postNotFound(postId: "p1")) {
            try await app.client(uid: "u2").addComment(postId: "p1", commentId: "c2", text: "late")
        }
        await #expect(throws: StampbookError.notPostAuthor(userId: "u2", postId: "p2")) {
            try await app.client(uid: "u2").deletePost(postId: "p2")
        }
    }

    @Test("Rules: only a comment's author or the post's author deletes a comment; copies are the owner's")
    func rules() async throws {
        let (app, backend) = try await makeApp()
        try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "")
        try await app.client(uid: "u2").addComment(postId: "p1", commentId: "c1", text: "nice")
        let stranger = backend.client(auth: AuthContext(uid: "u3"), label: "u3")
        #expect(await backendError { try await stranger.delete(StampbookApp.comment("p1", "c1")) }?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await stranger.setData(StampbookApp.postCopy("u1", "p9"), ["postId": "p9"]) }?.code == "PERMISSION_DENIED")
        let author = backend.client(auth: AuthContext(uid: "u1"), label: "u1")
        #expect(await backendError { try await author.delete(StampbookApp.comment("p1", "c1")) } == nil)
    }

    @Test("A comment racing the post's deletion never outlives it")
    func commentRacingDelete() async throws {
        for seed in UInt64(1)...20 {
            let backend = makeBackend(seed: seed)
            let app = StampbookApp(backend: backend)
            try await app.client(uid: "u1").createPost(postId: "p1", stampId: "s", caption: "")
            async let deleted: Void = app.client(uid: "u1").deletePost(postId: "p1")
            async let commented: Void = app.client(uid: "u2").addComment(postId: "p1", commentId: "c1", text: "hi")
            try await deleted
            _ = try? await commented
            #expect(ids(backend, "feed_posts").isEmpty)
            #expect(ids(backend, "feed_posts/p1/comments").isEmpty, "seed \(seed): an orphaned comment")
        }
    }

    @Test("Variant post-delete-feed-only leaves the copy and the comments behind")
    func feedOnlyVariant() async throws {
        let (app, backend) = try await makeApp(.postDeleteFeedOnly)
        try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "")
        try await app.client(uid: "u2").addComment(postId: "p1", commentId: "c1", text: "nice")
        try await app.client(uid: "u1").deletePost(postId: "p1")
        #expect(ids(backend, "feed_posts").isEmpty)
        #expect(ids(backend, "users/u1/posts") == ["p1"])
        #expect(ids(backend, "feed_posts/p1/comments") == ["c1"])
    }

    @Test("Variant comment-count-increment counts a double tap twice; careful counts it once")
    func commentCountVariant() async throws {
        for (variant, expected) in [(StampbookVariant.careful, Value.int(1)), (.commentCountIncrement, .int(2))] {
            let (app, backend) = try await makeApp(variant)
            try await app.client(uid: "u1").createPost(postId: "p1", stampId: "golden-gate", caption: "")
            try await app.client(uid: "u2").addComment(postId: "p1", commentId: "c1", text: "nice")
            try await app.client(uid: "u2").addComment(postId: "p1", commentId: "c1", text: "nice")
            #expect(await backend.firestore.get(StampbookApp.post("p1"))["commentCount"] == expected, "\(variant)")
            #expect(ids(backend, "feed_posts/p1/comments") == ["c1"])
        }
    }

    @Test("Follows: careful refuses a repeat; follow-count-increment counts a double tap twice")
    func follows() async throws {
        let (careful, carefulBackend) = try await makeApp()
        try await careful.client(uid: "u1").setFollowing("u2", following: true)
        await #expect(throws: StampbookError.alreadyFollowing(userId: "u1", targetUserId: "u2")) {
            try await careful.client(uid: "u1").setFollowing("u2", following: true)
        }
        #expect(carefulBackend.firestore.liveFields(DocumentPath("users", "u2"))?["followerCount"] == .int(1))

        let (app, backend) = try await makeApp(.followCountIncrement)
        let client = app.client(uid: "u1")
        async let first: Void = client.setFollowing("u2", following: true)
        async let second: Void = client.setFollowing("u2", following: true)
        let outcomes = [(try? await first) != nil, (try? await second) != nil]
        #expect(ids(backend, "users/u1/following") == ["u2"])
        let followers = backend.firestore.liveFields(DocumentPath("users", "u2"))?["followerCount"]
        // Both taps read "not following" before either wrote: counted twice.
        #expect(outcomes == [true, true] ? followers == .int(2) : followers == .int(1))
    }
}
