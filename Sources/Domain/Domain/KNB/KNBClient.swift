import SimulatedFirebase
import Synchronization

/// The KNB iOS app of one signed-in user (its `FirestoreManager`): every action goes through
/// the user's `FirestoreClient`, so it pays network faults and is checked by KNB's rules.
public final class KNBClient: Sendable {
    /// The signed-in user's email (their user id in KNB).
    public let email: String
    /// The user's display name, written into their bids and posts (the latest `changeName`).
    public var name: String { currentName.withLock { $0 } }
    private let currentName: Mutex<String>
    /// The device's view of the backend (its network and auth).
    public let firestore: FirestoreClient
    let app: KNBApp
    /// The device's Storage SDK, made on first use (so clients that never upload draw nothing).
    private let storageDevice = Mutex<StorageClient?>(nil)
    /// Posts whose images this device left undecided (the look at the post after a failed write
    /// went unanswered): kept on the device until a later look says whether the post exists.
    let undecidedPosts = Mutex<[(path: DocumentPath, media: [Value])]>([])
    /// Careful design: extra rounds of the bid transaction after ABORTED (contention).
    public static let bidRetryRounds = 3
    /// Bids of this device in flight, and whether a rename is: a rename waits for the bids in
    /// flight and bids wait for a rename, so no bid carries a name a rename is changing (a bid
    /// read with the old name and committed after the new name's propagation would keep it).
    /// Uncontended, neither waits; contended, each looks again every 50 ms of the clock.
    private let bidsInFlight = Atomic<Int>(0)
    private let renaming = Atomic<Bool>(false)
    /// How often a waiting bid or rename looks again.
    private static let gatePoll: Duration = .milliseconds(50)

    /// Registers a bid in flight, after any rename in progress.
    private func beginBid() async {
        while true {
            bidsInFlight.add(1, ordering: .sequentiallyConsistent)
            guard renaming.load(ordering: .sequentiallyConsistent) else { return }
            bidsInFlight.subtract(1, ordering: .sequentiallyConsistent)
            try? await app.backend.env.clock.sleep(for: Self.gatePoll)
        }
    }

    /// Claims the rename, then waits for this device's bids in flight to end.
    private func beginRename() async {
        while !renaming.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
            try? await app.backend.env.clock.sleep(for: Self.gatePoll)
        }
        while bidsInFlight.load(ordering: .sequentiallyConsistent) > 0 {
            try? await app.backend.env.clock.sleep(for: Self.gatePoll)
        }
    }

    /// A rename the backend has not acknowledged (its answer lost, the profile unreadable).
    private let pendingName = Mutex<String?>(nil)
    /// Bids placed from this device so far: each bid carries `requestId` "<email>#<n>", so a
    /// transaction retried after a lost answer finds its own bid instead of bidding again.
    private let bidRequests = Atomic<Int>(0)

    init(app: KNBApp, email: String, name: String) {
        self.app = app
        self.email = email
        self.currentName = Mutex(name)
        self.firestore = app.backend.client(auth: AuthContext(uid: email, email: email), label: "knb/\(email)")
    }

    /// The device's `Date()` (MODEL_RULES §24: its own clock, not the server's).
    private var now: Timestamp { firestore.deviceClock.now }

    /// The device's Cloud Storage SDK (same user and connection as `firestore`).
    public var storage: StorageClient {
        storageDevice.withLock { device in
            if let device { return device }
            let made = app.backend.storageClient(for: firestore, label: "knb/\(email)")
            device = made
            return made
        }
    }

    // MARK: Profile

    /// Sign-in: creates `users/{email}` with every notification preference on, or, if it exists,
    /// updates only the name. The seed's sign-in "creates or updates" the user: a second sign-in
    /// (new device, reinstall) must keep totalPledged, the other devices' tokens, the preferences
    /// and admin status. One client transaction, so a sign-in racing another cannot reset either.
    public func register() async throws(KNBError) {
        do {
            let path = KNBApp.userPath(email)
            try await firestore.runTransaction { tx in
                if try await tx.get(path).exists {
                    tx.update(path, ["name": .set(.string(self.name))])
                    return
                }
                tx.set(path, Self.newUser(email: self.email, name: self.name))
            }
        } catch { throw .wrap(error) }
    }

    /// The honor document `createHonor` writes.
    static func newHonor(name: String, buyNowPrice: Double, category: String) -> Fields {
        [
            "name": .string(name), "description": "", "currentBid": .double(0), "buyNowPrice": .double(buyNowPrice),
            "isSold": false, "category": .string(category), "bids": [],
        ]
    }

    /// The user document `register` creates for a new account.
    static func newUser(email: String, name: String) -> Fields {
        let prefs: Value = ["adminPosts": true, "postLikes": true, "postReplies": true, "replyLikes": true, "outbid": true]
        return [
            "name": .string(name), "email": .string(email), "totalPledged": .double(0), "isAdmin": false,
            "notificationPrefs": prefs, "fcmTokens": .map([:]),
        ]
    }

    /// One device's entry in `fcmTokens`, as `registerToken` writes it at `time`.
    static func tokenEntry(at time: Timestamp) -> Value { ["platform": "iOS", "updatedAt": .timestamp(time)] }

    /// Profile edit: the app shows (and bids with) `newName` at once, then writes
    /// `users/{email}.name`; `onUserUpdate` carries it into the user's bids and posts.
    public func changeName(_ newName: String) async throws(KNBError) {
        await beginRename()
        defer { renaming.store(false, ordering: .sequentiallyConsistent) }
        try await rename(to: newName)
    }

    private func rename(to newName: String) async throws(KNBError) {
        let oldName = currentName.withLock { name in
            defer { name = newName }
            return name
        }
        do {
            try await firestore.updateData(KNBApp.userPath(email), ["name": .set(.string(newName))])
            pendingName.withLock { $0 = nil }
        } catch {
            // A write whose answer was lost may have landed: the profile says which name stands.
            // When it cannot be read either, the change stays pending (shown, and sent again before
            // the next bid and by `settleName`), as the SDK keeps an unacknowledged write queued.
            let stored = (try? await firestore.get(KNBApp.userPath(email)))?["name"]?.stringValue
            if stored == newName { pendingName.withLock { $0 = nil }; return }
            if stored == nil && BackendError.inside(error)?.isRetryableInTransaction == true {
                pendingName.withLock { $0 = newName }
                return
            }
            currentName.withLock { $0 = stored ?? oldName }
            throw .wrap(error)
        }
    }

    /// Whether a rename is still waiting for the backend to acknowledge it (see `changeName`).
    public var hasPendingName: Bool { pendingName.withLock { $0 != nil } }

    /// Sends a pending rename again (idempotent: it sets the name); true once none is pending.
    @discardableResult
    public func settleName() async -> Bool {
        guard let pending = pendingName.withLock({ $0 }) else { return true }
        do {
            try await firestore.updateData(KNBApp.userPath(email), ["name": .set(.string(pending))])
        } catch {
            guard (try? await firestore.get(KNBApp.userPath(email)))?["name"]?.stringValue == pending else { return false }
        }
        pendingName.withLock { if $0 == pending { $0 = nil } }
        return true
    }

    /// Records this device's push token under the user.
    public func registerToken(_ token: String) async throws(KNBError) {
        do {
            try await firestore.updateData(KNBApp.userPath(email), ["fcmTokens.\(token)": .set(Self.tokenEntry(at: now))])
        } catch { throw .wrap(error) }
    }

    /// FCM handed this device a new token (`messaging(_:didReceiveRegistrationToken:)`): the app
    /// records it as it records the first (`token-stored-at-sign-in`: it does not).
    public func tokenRefreshed(_ token: String) async throws(KNBError) {
        guard !app.has(.tokenStoredAtSignIn) else { return }
        try await registerToken(token)
    }

    /// Sets one of `adminPosts`, `postLikes`, `postReplies`, `replyLikes`, `outbid`.
    public func setPreference(_ key: String, _ enabled: Bool) async throws(KNBError) {
        do {
            try await firestore.updateData(KNBApp.userPath(email), ["notificationPrefs.\(key)": .set(.bool(enabled))])
        } catch { throw .wrap(error) }
    }

    /// Super admin only (rules): promotes or demotes `user`.
    public func setAdmin(_ user: String, _ isAdmin: Bool) async throws(KNBError) {
        do {
            try await firestore.updateData(KNBApp.userPath(user), ["isAdmin": .set(.bool(isAdmin))])
        } catch { throw .wrap(error) }
    }

    // MARK: Auction

    /// Admin only (rules).
    public func createHonor(id: String, name: String, buyNowPrice: Double, category: String = "general") async throws(KNBError) {
        do {
            try await firestore.setData(DocumentPath("honors", id), Self.newHonor(name: name, buyNowPrice: buyNowPrice, category: category))
        } catch { throw .wrap(error) }
    }

    /// Places a bid in a transaction (strictly increasing, one new bid entry, not after sold);
    /// returns the deterministic bid id `<honor>-b<n>`.
    @discardableResult
    public func placeBid(honorId: String, amount: Double, comment: String? = nil) async throws(KNBError) -> String {
        await beginBid()
        defer { bidsInFlight.subtract(1, ordering: .sequentiallyConsistent) }
        await settleName()
        let request = nextBidRequest()
        do {
            let rounds = app.has(.bidBurstLosesBids) ? 0 : Self.bidRetryRounds
            var round = 0
            while true {
                do {
                    return try await bidTransaction(honorId: honorId, amount: amount, comment: comment, buyNow: false, request: request)
                } catch BackendError.aborted(let reason) where round < rounds && reason == .contention {
                    round += 1  // the bid carries its request id: a round after a landed commit whose answer was lost finds it
                }
            }
        } catch {
            if let landed = try await settle(honorId: honorId, request: request, after: error) { return landed }
            throw .wrap(error)
        }
    }

    /// After a bid failed with a backend error: the id of its bid if a commit whose answer was lost
    /// landed; nil when it did not (or the error was the app's own, which no commit follows);
    /// `bidOutcomeUnknown` when the honor cannot be read to tell (careful design only).
    private func settle(honorId: String, request: BidRequest, after error: any Error) async throws(KNBError) -> String? {
        guard idempotentBids, BackendError.inside(error) != nil, !(error is KNBError) else { return nil }
        guard let honor = try? await firestore.get(DocumentPath("honors", honorId)) else { throw .bidOutcomeUnknown(honorId: honorId) }
        return Self.bid(request, in: honor.fields?["bids"]?.arrayValue ?? [])
    }

    /// Whether bids carry a request id and failures are settled by looking (the careful design).
    private var idempotentBids: Bool { !app.has(.bidBurstLosesBids) && !app.has(.bidWithoutRequestId) }

    /// A new request for one bid of this device.
    private func nextBidRequest() -> BidRequest {
        BidRequest(id: "\(email)#\(bidRequests.wrappingAdd(1, ordering: .relaxed).newValue)")
    }

    /// One bid's request id, and how many bids the honor held when the bid first read it: a bid
    /// of this request can only be at or after that position, so looking for it costs the bids
    /// committed since, not the whole array.
    final class BidRequest: Sendable {
        let id: String
        private let firstSeen = Mutex<Int?>(nil)
        init(id: String) { self.id = id }
        /// The first position a bid of this request can hold in `bids` (fixed at the first read).
        func floor(_ bids: ValueArray) -> Int {
            firstSeen.withLock { seen in
                if seen == nil { seen = bids.count }
                return seen!
            }
        }
    }

    /// The id of the bid carrying `request` in `bids`, if any.
    private static func bid(_ request: BidRequest, in bids: ValueArray) -> String? {
        let key = Value.string(request.id)
        var index = bids.endIndex
        let floor = max(bids.startIndex, min(request.floor(bids), bids.endIndex))
        while index > floor {
            index = bids.index(before: index)
            if bids[index].mapValue?["requestId"] == key { return bids[index].mapValue?["id"]?.stringValue }
        }
        return nil
    }

    /// Buys the honor at its Buy Now price (careful: in a transaction).
    @discardableResult
    public func buyNow(honorId: String) async throws(KNBError) -> String {
        await beginBid()
        defer { bidsInFlight.subtract(1, ordering: .sequentiallyConsistent) }
        do {
            if app.has(.buyNowOutsideTransaction) {
                let honor = try await firestore.get(DocumentPath("honors", honorId))
                guard let fields = honor.fields else { throw KNBError.honorNotFound(honorId) }
                if fields["isSold"] == .bool(true) { throw KNBError.honorSold(honorId) }
                let price = fields["buyNowPrice"]?.doubleValue ?? 0
                let bids = fields["bids"]?.arrayValue ?? []
                let bidId = "\(honorId)-b\(bids.count + 1)"
                try await firestore.updateData(honor.path, [
                    "isSold": .set(true), "currentBid": .set(.double(price)), "currentWinner": .set(.string(name)),
                    "currentWinnerEmail": .set(.string(email)), "bids": .arrayUnion([bidValue(id: bidId, amount: price, comment: "Buy Now")]),
                ])
                return bidId
            }
            let request = nextBidRequest()
            do {
                return try await bidTransaction(honorId: honorId, amount: nil, comment: "Buy Now", buyNow: true, request: request)
            } catch {
                if let landed = try await settle(honorId: honorId, request: request, after: error) { return landed }
                throw error
            }
        } catch { throw .wrap(error) }
    }

    private func bidValue(id: String, amount: Double, comment: String?, request: BidRequest? = nil) -> Value {
        var bid: Fields = [  // in key order: a literal in order is built without searching
            "amount": .double(amount), "bidderEmail": .string(email), "bidderName": .string(name), "id": .string(id),
            "timestamp": .timestamp(now),
        ]
        if let request { bid["requestId"] = .string(request.id) }
        if let comment { bid["comment"] = .string(comment) }
        return .map(bid)
    }

    private func bidTransaction(honorId: String, amount: Double?, comment: String?, buyNow: Bool, request: BidRequest) async throws -> String {
        let path = DocumentPath("honors", honorId)
        let idempotent = idempotentBids
        return try await firestore.runTransaction { tx in
            let honor = try await tx.get(path)
            guard let fields = honor.fields else { throw KNBError.honorNotFound(honorId) }
            // An earlier attempt of this bid committed and its answer was lost: it stands.
            if idempotent, let landed = Self.bid(request, in: fields["bids"]?.arrayValue ?? []) { return landed }
            if fields["isSold"] == .bool(true) { throw KNBError.honorSold(honorId) }
            let current = fields["currentBid"]?.doubleValue ?? 0
            let price = fields["buyNowPrice"]?.doubleValue ?? 0
            if buyNow && current >= price {
                throw KNBError.buyNowUnavailable(honorId: honorId, currentBid: current, buyNowPrice: price)
            }
            let value = buyNow ? price : amount!
            guard value > current else { throw KNBError.bidTooLow(amount: value, currentBid: current) }
            let bids = fields["bids"]?.arrayValue ?? []
            let bidId = "\(honorId)-b\(bids.count + 1)"
            // The whole array with one more bid, as the client sends it; appended in the buffer
            // it was read from, not copied (`ValueArray`).
            var newBids = bids
            newBids.append(bidValue(id: bidId, amount: value, comment: comment, request: idempotent ? request : nil))
            var updates: FieldUpdates = [  // in key order: built without searching
                "bids": .set(.array(newBids)), "currentBid": .set(.double(value)), "currentWinner": .set(.string(name)),
                "currentWinnerEmail": .set(.string(email)),
            ]
            if buyNow { updates["isSold"] = .set(true) }
            tx.update(path, updates)
            return bidId
        }
    }

    // MARK: Feed

    /// Creates a top-level post (or a reply with `parentPostId`); returns its path.
    @discardableResult
    public func createPost(_ content: String, imageCount: Int = 0, parentPostId: String? = nil) async throws(KNBError) -> DocumentPath {
        do {
            if content.count > 140 { throw KNBError.postTooLong(characters: content.count) }
            if imageCount > 4 { throw KNBError.tooManyImages(imageCount) }
            if content.isEmpty && imageCount == 0 { throw KNBError.emptyPost }
            let media: [Value] = (0..<imageCount).map { index in
                ["type": "image", "storagePath": .string("social_posts/\(email)/\(index).jpg"), "width": 1024, "height": 768]
            }
            return try await firestore.add("social_posts", [
                "authorName": .string(name), "authorEmail": .string(email), "content": .string(content),
                "timestamp": .timestamp(now), "likes": [], "likeCount": 0, "replyCount": 0,
                "parentPostId": parentPostId.map(Value.string) ?? .null, "editedAt": .null, "mediaItems": .array(media),
            ])
        } catch { throw .wrap(error) }
    }

    /// Replies to post `postId`; returns the reply's path.
    @discardableResult
    public func reply(to postId: String, _ content: String) async throws(KNBError) -> DocumentPath {
        try await createPost(content, parentPostId: postId)
    }

    /// Likes a post once (careful: in a transaction; a repeat is a no-op).
    public func like(_ postId: String) async throws(KNBError) {
        do {
            let path = DocumentPath("social_posts", postId)
            if app.has(.likeArrayUnionIncrement) {
                try await firestore.updateData(path, ["likes": .arrayUnion([.string(email)]), "likeCount": .increment(1)])
                return
            }
            if app.has(.likeGuardReentrant) {
                // A tap while this post's like is in flight is ignored; the guard is released after.
                let key = "\(email)/\(postId)"
                guard await app.deviceMemory.claimAcrossAwait(key, at: app.backend.env.clock.now) else { return }
                do {
                    let post = try await firestore.get(path)
                    if post["likes"]?.arrayValue?.contains(.string(email)) != true {
                        try await firestore.updateData(path, ["likes": .arrayUnion([.string(email)]), "likeCount": .increment(1)])
                    }
                } catch {
                    await app.deviceMemory.release(key)
                    throw error
                }
                await app.deviceMemory.release(key)
                return
            }
            try await firestore.runTransaction { tx in
                let post = try await tx.get(path)
                guard let likes = post["likes"]?.arrayValue else { throw KNBError.postNotFound(postId) }
                if likes.contains(.string(self.email)) { return }
                var newLikes = likes
                newLikes.append(.string(self.email))
                tx.update(path, ["likes": .set(.array(newLikes)), "likeCount": .set(.int(Int64(likes.count + 1)))])
            }
        } catch { throw .wrap(error) }
    }

    /// Unlike; careful: a no-op for a user who does not like the post.
    public func unlike(_ postId: String) async throws(KNBError) {
        do {
            let path = DocumentPath("social_posts", postId)
            if app.has(.unlikeNonLikerDecrements) {
                try await firestore.updateData(path, ["likes": .arrayRemove([.string(email)]), "likeCount": .increment(-1)])
                return
            }
            try await firestore.runTransaction { tx in
                let post = try await tx.get(path)
                guard let likes = post["likes"]?.arrayValue else { throw KNBError.postNotFound(postId) }
                guard likes.contains(.string(self.email)) else { return }
                let remaining = likes.filter { $0 != .string(self.email) }
                tx.update(path, ["likes": .set(.array(remaining)), "likeCount": .set(.int(Int64(remaining.count)))])
            }
        } catch { throw .wrap(error) }
    }

    /// Replaces a post's text and stamps `editedAt` (its author only, per the rules).
    public func edit(_ postId: String, content: String) async throws(KNBError) {
        do {
            if content.count > 140 { throw KNBError.postTooLong(characters: content.count) }
            try await firestore.updateData(DocumentPath("social_posts", postId), ["content": .set(.string(content)), "editedAt": .serverTimestamp])
        } catch { throw .wrap(error) }
    }

    /// Deletes a post (its author or an admin, per the rules). Its replies are removed by the
    /// backend (`onPostDelete`): the rules let only a reply's author or an admin delete a reply,
    /// so a client-side cascade would stop an author at the first reply someone else wrote.
    public func deletePost(_ postId: String) async throws(KNBError) {
        do {
            try await firestore.delete(DocumentPath("social_posts", postId))
        } catch { throw .wrap(error) }
    }

    // MARK: Kiddush and seats

    /// Books the kiddush of Shabbat `date` (ISO `yyyy-mm-dd`); careful: id = date, created in a
    /// transaction so a second booking fails `dateAlreadyBooked`.
    @discardableResult
    public func bookKiddush(date: String, occasion: String, tierName: String, tierAmount: Int, isAnonymous: Bool = false)
        async throws(KNBError) -> DocumentPath
    {
        do {
            let fields: Fields = [
                "date": .string(date), "sponsorName": .string(name), "sponsorEmail": .string(email),
                "occasion": .string(occasion), "tierName": .string(tierName), "tierAmount": .int(Int64(tierAmount)),
                "isAnonymous": .bool(isAnonymous), "timestamp": .timestamp(now), "isPaid": false,
            ]
            if app.has(.kiddushRandomId) { return try await firestore.add("kiddush_sponsorships", fields) }
            let path = DocumentPath("kiddush_sponsorships", date)
            if app.has(.kiddushSetDataOverwrite) {
                try await firestore.setData(path, fields)
                return path
            }
            try await firestore.runTransaction { tx in
                if try await tx.get(path).exists { throw KNBError.dateAlreadyBooked(date) }
                tx.set(path, fields)
            }
            return path
        } catch { throw .wrap(error) }
    }

    /// Cancels the kiddush booking at `path` made by `sponsor` (default: this user; an admin names
    /// another sponsor to cancel theirs). Careful: in a transaction that deletes only that sponsor's
    /// booking, because the id is the date: after a cancellation the date can be booked again, and a
    /// retried or late cancel by path would delete the new booking (an admin's, which the rules
    /// allow). A booking already gone is a no-op; another sponsor's throws `bookingChanged`.
    public func cancelKiddush(_ path: DocumentPath, sponsor: String? = nil) async throws(KNBError) {
        let expected = sponsor ?? email
        do {
            try await firestore.runTransaction { tx in
                let booking = try await tx.get(path)
                guard booking.exists else { return }
                guard booking["sponsorEmail"]?.stringValue == expected else { throw KNBError.bookingChanged(path.id) }
                tx.delete(path)
            }
        } catch { throw .wrap(error) }
    }

    /// Reserves seat `row`-`number`; careful: id = seat, created in a transaction.
    @discardableResult
    public func reserveSeat(row: String, number: Int) async throws(KNBError) -> DocumentPath {
        do {
            let fields: Fields = [
                "row": .string(row), "number": .int(Int64(number)), "reservedBy": .string(email),
                "reservedByName": .string(name), "timestamp": .timestamp(now),
            ]
            if app.has(.seatRandomId) { return try await firestore.add("seat_reservations", fields) }
            let path = DocumentPath("seat_reservations", "\(row)-\(number)")
            try await firestore.runTransaction { tx in
                if try await tx.get(path).exists { throw KNBError.seatTaken("\(row)-\(number)") }
                tx.set(path, fields)
            }
            return path
        } catch { throw .wrap(error) }
    }

    /// Releases the seat this user holds at `path`. Careful: one transaction deletes the
    /// reservation only while it is still this user's, so a retry after a lost answer finds it
    /// gone, or rebooked by someone else meanwhile, and succeeds: the seat was released (a seat
    /// this user does not hold is left as it is). `seat-release-plain-delete`: a plain delete,
    /// whose retry is refused (PERMISSION_DENIED, the seat is another's now) although the first
    /// attempt released it.
    public func releaseSeat(_ path: DocumentPath) async throws(KNBError) {
        do {
            if app.has(.seatReleasePlainDelete) {
                try await firestore.delete(path)
                return
            }
            let email = email
            try await firestore.runTransaction { tx in
                guard try await tx.get(path)["reservedBy"]?.stringValue == email else { return }
                tx.delete(path)
            }
        } catch { throw .wrap(error) }
    }

    /// An admin releases anyone's seat (the rules let an admin delete any reservation, and refuse
    /// anyone else who does not hold it).
    public func releaseAnySeat(_ path: DocumentPath) async throws(KNBError) {
        do { try await firestore.delete(path) } catch { throw .wrap(error) }
    }
}
