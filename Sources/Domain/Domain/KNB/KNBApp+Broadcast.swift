import SimulatedFirebase

/// ADMIN_POST (seed: "admin posts notify every user"): an admin's announcement goes to every user
/// whose `notificationPrefs.adminPosts` is on, as an in-app notification and a push to each of
/// their devices, and tokens FCM reports UNREGISTERED are deleted (docs/domain.md, "KNB
/// announcements").
///
/// Careful: the users are taken in id order, a chunk at a time; a chunk's in-app notifications
/// are created concurrently (by id, so a second write is ALREADY_EXISTS), its pushes go in
/// `sendEach` calls of at most 500, its dead tokens are deleted, and only then does
/// `knb_broadcasts/{postId}` record the chunk's last user. A redelivery after a crash or a timeout
/// (the trigger is deployed with retries) resumes after the last recorded chunk: every user is
/// notified at least once, and only the chunk an invocation died in can ring twice. A concurrent
/// duplicate delivery finds the fan-out held (`claimBroadcast`) and leaves it.
extension KNBApp {
    /// Users per chunk of the careful fan-out.
    static let broadcastChunk = 100
    /// `onPostCreate`'s deployed execution timeout (the careful design's; the longest there is).
    public static let postTriggerTimeout = Functions.maxTimeout
    /// How long a fan-out's claim holds: past the trigger's timeout, so a live holder keeps it.
    public static let broadcastLease = postTriggerTimeout + .seconds(10)
    /// The fan-out records its progress at most this often: `knb_broadcasts/{postId}` is one
    /// document, held to about one write a second (MODEL_RULES §25), and chunks go out faster.
    static let progressInterval = Duration.seconds(1)

    /// `knb_broadcasts/{postId}`: how far the fan-out of one announcement got.
    static func broadcastPath(_ postId: String) -> DocumentPath { DocumentPath("knb_broadcasts", postId) }

    /// The in-app notification of announcement `postId` for one user.
    static func announcementPath(_ user: String, _ postId: String) -> DocumentPath {
        DocumentPath("users/\(user)/notifications", "ADMIN_POST-\(postId)")
    }

    /// Fans announcement `postId` by `author` out to every user who wants it; `redelivered`: this
    /// delivery is a retry of one that failed.
    func broadcast(_ postId: String, author: String, content: String, redelivered: Bool) async throws {
        if has(.broadcastOneByOne) {
            for user in await firestore.fetch("users") where user.id != author {
                await notify(user.id, type: "ADMIN_POST", preference: "adminPosts", title: "New announcement",
                             body: content, data: ["postId": postId], key: postId)
            }
            return
        }
        let holder = firestore.newDocumentId()
        guard let after = try await claimBroadcast(postId, holder: holder, redelivered: redelivered) else { return }
        let recipients = await firestore.fetch("users").filter { user in
            user.id != author && user.id > after
                && (has(.broadcastIgnoresPreference) || user["notificationPrefs"]?.mapValue?["adminPosts"] != .bool(false))
        }
        if has(.broadcastSingleMulticast) {
            await announceInOneCall(recipients, postId: postId, content: content)
            return
        }
        var start = 0
        var recordedAt: Timestamp?
        while start < recipients.count {
            let chunk = recipients[start..<min(start + Self.broadcastChunk, recipients.count)]
            start += chunk.count
            try await announce(to: chunk, postId: postId, content: content)
            let now = backend.env.clock.now
            // Progress is a hint for a redelivery (which re-sends what is not recorded): recorded
            // at most once a second, unless the old design records every chunk.
            guard has(.broadcastProgressEveryChunk) || recordedAt.map({ now - $0 >= Self.progressInterval }) ?? true else { continue }
            recordedAt = now
            let after = chunk.last!.id
            if has(.broadcastProgressEveryChunk) {
                try await firestore.merge(Self.broadcastPath(postId), ["after": .set(.string(after))])
            } else {
                try await idempotently { () async throws(BackendError) in try await self.firestore.merge(Self.broadcastPath(postId), ["after": .set(.string(after))]) }
            }
        }
        try await idempotently { () async throws(BackendError) in try await self.firestore.merge(Self.broadcastPath(postId), ["done": .set(true)]) }
    }

    /// Takes the fan-out of `postId` for `holder`, in one server transaction: the id of the last
    /// user already covered ("" for none), or nil when it is done or another delivery holds it. The
    /// hold is a lease past the function's timeout: a concurrent duplicate leaves a held fan-out to
    /// its holder; a redelivery waits (throws, to come back later) until a dead holder's lease has
    /// run out, then takes over from the last chunk recorded.
    private func claimBroadcast(_ postId: String, holder: String, redelivered: Bool) async throws -> String? {
        let path = Self.broadcastPath(postId)
        let now = backend.env.clock.now
        let leaseEnd = now + Self.broadcastLease
        let outcome = try await firestore.runTransaction { tx -> (after: String?, busy: Bool) in
            let progress = try await tx.get(path)
            if progress["done"] == .bool(true) { return (nil, false) }
            // A lease of this holder's own is one an earlier attempt of this transaction committed
            // (its answer lost, MODEL_RULES §22): it is taken again, not mistaken for another's.
            let ownLease = progress["holder"]?.stringValue == holder && !self.has(.broadcastOwnLeaseBusy)
            if let until = progress["leaseUntil"]?.timestampValue, until > now, !ownLease {
                return (nil, redelivered)
            }
            let after = progress["after"]?.stringValue ?? ""
            let lease: Fields = ["after": .string(after), "holder": .string(holder), "leaseUntil": .timestamp(leaseEnd)]
            if self.has(.broadcastLeasePlainWrite) {
                // `db.doc(…).set()` where `t.set()` was meant: a write outside the transaction, to a
                // document the transaction has read and so holds locked.
                try await self.firestore.set(path, lease)
            } else {
                tx.set(path, lease)
            }
            return (after, false)
        }
        if outcome.busy { throw BackendError.unavailable("the announcement's fan-out is held by an earlier delivery; redelivered later") }
        return outcome.after
    }

    /// One chunk: in-app notifications, pushes to every token, dead tokens deleted.
    private func announce(to users: ArraySlice<DocumentSnapshot>, postId: String, content: String) async throws {
        let record = Self.announcementRecord(postId: postId, content: content, at: backend.env.clock.now)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in users {
                group.addTask {
                    // ALREADY_EXISTS: an earlier attempt wrote it before it died, or this create's
                    // own answer was lost and it ran again.
                    try await self.idempotently { () async throws(BackendError) in
                        do throws(BackendError) {
                            try await self.firestore.create(Self.announcementPath(user.id, postId), record)
                        } catch {
                            guard case .alreadyExists = error else { throw error }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let messages = users.flatMap { user in
            Self.tokens(of: user).map { (token: $0, message: announcementPush(to: user.id, postId: postId, content: content)) }
        }
        var dead: [(user: String, token: String)] = []
        var start = 0
        while start < messages.count {
            let batch = Array(messages[start..<min(start + backend.faults.fcmMaxTokensPerCall, messages.count)])
            start += batch.count
            let outcomes = try await backend.messaging.sendEach(batch)
            for (sent, outcome) in zip(batch, outcomes) where outcome == .unregistered {
                dead.append((sent.message.recipient, sent.token))
            }
        }
        guard !has(.staleTokensKept) else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (user, token) in dead {
                group.addTask { try await self.idempotently { () async throws(BackendError) in _ = try await self.firestore.update(Self.userPath(user), ["fcmTokens.\(token)": .delete]) } }
            }
            try await group.waitForAll()
        }
    }

    /// `broadcast-single-multicast`: every user's notification, then every token in one multicast
    /// (an error is only logged), then its dead tokens deleted.
    private func announceInOneCall(_ users: [DocumentSnapshot], postId: String, content: String) async {
        let record = Self.announcementRecord(postId: postId, content: content, at: backend.env.clock.now)
        for user in users { _ = try? await firestore.create(Self.announcementPath(user.id, postId), record) }
        let owned = users.flatMap { user in Self.tokens(of: user).map { (user: user.id, token: $0) } }
        guard !owned.isEmpty,
              let outcomes = try? await backend.messaging.sendEachForMulticast(
                  tokens: owned.map(\.token), message: announcementPush(to: "", postId: postId, content: content)) else { return }
        for (sent, outcome) in zip(owned, outcomes) where outcome == .unregistered {
            _ = try? await firestore.update(Self.userPath(sent.user), ["fcmTokens.\(sent.token)": .delete])
        }
    }

    /// Runs an idempotent admin write, again when its answer was lost (MODEL_RULES §22: it may
    /// have landed; running it twice changes nothing) or the document's write rate refused it
    /// (§25: nothing landed; a second later), up to five times. After a chunk's pushes went out, a
    /// write that throws would make the redelivery ring the chunk again.
    func idempotently(_ write: () async throws(BackendError) -> Void) async throws(BackendError) {
        for attempt in 1...5 {
            do {
                try await write()
                return
            } catch .deadlineExceeded(let reason) {
                if attempt == 5 { throw .deadlineExceeded(reason) }
            } catch .aborted(let reason) {
                guard case .writeRate = reason, attempt < 5 else { throw .aborted(reason) }
                try? await backend.env.clock.sleep(for: .seconds(1))
            } catch {
                throw error
            }
        }
    }

    /// A user's push tokens, in order.
    static func tokens(of user: DocumentSnapshot) -> [String] {
        (user["fcmTokens"]?.mapValue?.keys).map { $0.sorted() } ?? []
    }

    /// The in-app notification of an announcement (the fields `notify` writes).
    static func announcementRecord(postId: String, content: String, at time: Timestamp) -> Fields {
        [
            "body": .string(content), "createdAt": .timestamp(time), "data": .map(["postId": .string(postId)]),
            "isRead": false, "key": .string(postId), "title": "New announcement", "type": "ADMIN_POST",
        ]
    }

    /// The push of an announcement to `user`'s devices (`broadcast-push-now-or-never`: with a
    /// time to live of zero, dropped for a device that is away).
    func announcementPush(to user: String, postId: String, content: String) -> PushMessage {
        PushMessage(recipient: user, type: "ADMIN_POST", title: "New announcement", body: content, data: ["postId": postId],
                    timeToLive: has(.broadcastPushNowOrNever) ? .zero : nil)
    }
}
