import SimulatedFirebase

extension KNBClient {
    /// Upload attempts per image before it is dropped from the post.
    public static let imageUploadAttempts = 3

    /// Creates a top-level post with images (§ Social Feed "Image upload: up to 4 images … uploaded
    /// to Firebase Storage"; docs/domain.md, KNB "Posting with images"). The post id is chosen first (the
    /// SDK's `document()`), each image goes to `social_posts/{postId}/{index}.jpg` with
    /// `authorEmail` metadata (retried on transient failure, dropped after
    /// `imageUploadAttempts`), then the post is written once with `mediaItems` listing exactly the
    /// stored images. If the post cannot be written, the stored images are deleted again: a post
    /// never lists a missing image and no image outlives a post that was never written. When the
    /// look at the post after a failed write goes unanswered, the images stay undecided on the
    /// device until a later look (`finishPostCleanup`, first thing in the next post with images;
    /// `post-cleanup-without-answer` deletes them at once).
    @discardableResult
    public func createPost(_ content: String, images: [KNBPostImage]) async throws(KNBError) -> KNBMediaPost {
        if content.count > 140 { throw .postTooLong(characters: content.count) }
        if images.count > 4 { throw .tooManyImages(images.count) }
        if content.isEmpty && images.isEmpty { throw .emptyPost }
        if hasUndecidedPosts { await finishPostCleanup() }
        let postId = app.backend.firestore.newDocumentId()
        let path = DocumentPath("social_posts", postId)
        var media: [Value] = []
        var attempts = 0
        for (index, image) in images.enumerated() {
            let objectPath = "social_posts/\(postId)/\(index).jpg"
            let upload = StorageUpload(sizeBytes: image.sizeBytes, contentType: image.contentType, metadata: ["authorEmail": email])
            do {
                let stored = try await storage.upload(objectPath, upload, attempts: Self.imageUploadAttempts)
                attempts += stored.attempts
                media.append([
                    "type": "image", "storagePath": .string(objectPath), "downloadURL": .string(CloudStorage.downloadURL(for: stored.object)),
                    "width": .int(Int64(image.width)), "height": .int(Int64(image.height)), "fileSizeBytes": .int(Int64(image.sizeBytes)),
                ])
            } catch .unavailable {
                attempts += Self.imageUploadAttempts
            } catch {
                await deleteImages(media)
                throw .backend(error)
            }
        }
        let stored = media.count
        if content.isEmpty && media.isEmpty { throw .backend(.unavailable("every image upload failed; the post was not written")) }
        let fields: Fields = [
            "authorName": .string(name), "authorEmail": .string(email), "content": .string(content),
            "timestamp": .timestamp(app.backend.env.clock.now), "likes": [], "likeCount": 0, "replyCount": 0,
            "parentPostId": .null, "editedAt": .null, "mediaItems": .array(media),
        ]
        var lastError: BackendError = .unavailable("the post was not written")
        for attempt in 1...3 {
            do {
                // setData on the chosen id: a retry after a lost answer rewrites the same fields.
                try await firestore.setData(path, fields)
                return KNBMediaPost(path: path, storedImages: stored, droppedImages: images.count - stored, uploadAttempts: attempts)
            } catch {
                lastError = error
                guard error.isTransient else { break }
                try? await app.backend.env.clock.sleep(for: .seconds(attempt))
            }
        }
        // The write may still have landed (a lost answer): keep the images if the post exists,
        // and decide later when the look goes unanswered.
        let post = await firestore.getRetrying(path)
        if post?.exists == true {
            return KNBMediaPost(path: path, storedImages: stored, droppedImages: images.count - stored, uploadAttempts: attempts)
        }
        if post == nil, app.variant != .postCleanupWithoutAnswer {
            undecidedPosts.withLock { $0.append((path, media)) }
            throw .backend(lastError)
        }
        await deleteImages(media)
        throw .backend(lastError)
    }

    /// Whether an earlier post on this device left images undecided (see `finishPostCleanup`).
    public var hasUndecidedPosts: Bool { undecidedPosts.withLock { !$0.isEmpty } }

    /// What the app does when it opens and before each post with images: looks at each post whose
    /// write left its images undecided and deletes the images of those that do not exist. False
    /// while a look goes unanswered (those images stay undecided).
    @discardableResult
    public func finishPostCleanup() async -> Bool {
        let undecided = undecidedPosts.withLock { posts in
            defer { posts = [] }
            return posts
        }
        var left: [(path: DocumentPath, media: [Value])] = []
        for post in undecided {
            guard let snapshot = await firestore.getRetrying(post.path) else {
                left.append(post)
                continue
            }
            if !snapshot.exists { await deleteImages(post.media) }
        }
        undecidedPosts.withLock { $0 = left + $0 }
        return left.isEmpty
    }

    /// Deletes the images of a post that was never written (a missing one is already gone).
    private func deleteImages(_ media: [Value]) async {
        for item in media {
            guard let objectPath = item.mapValue?["storagePath"]?.stringValue else { continue }
            try? await storage.delete(objectPath)
        }
    }
}

extension BackendError {
    /// UNAVAILABLE or DEADLINE_EXCEEDED: worth a retry.
    var isTransient: Bool {
        switch self {
        case .unavailable, .deadlineExceeded: return true
        default: return false
        }
    }
}
