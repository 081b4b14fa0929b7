import SimulatedFirebase

extension KNBApp {
    func installFunctions() {
        let functions = backend.functions
        // Notification and cancellation triggers are deployed with retries: an invocation whose
        // instance crashes or that times out loses its event otherwise (MODEL_RULES §20). Each is
        // idempotent: notifications are claimed by id, the cancellation is one transaction.
        let retried = !has(.triggersWithoutRetries)
        functions.onUpdate("honors", name: "onOutbid", retry: retried) { [self] event in try await onOutbid(event) }
        // Retried: idempotent by a marker per bid, and its transaction reads the bidders' `users`
        // documents, which renames (`onUserUpdate`), sign-ins and token writes also write: past
        // ~1 write/s the transaction can run out of attempts, and without a redelivery the
        // pledge would be lost (auction-race seed 1885 with renames and swarm faults).
        functions.onUpdate("honors", name: "onBidPledge", retry: true) { [self] event in try await onBidPledge(event) }
        // The reply counters are idempotent (a marker per reply, in the same transaction), so they
        // are deployed with retries: a transaction aborted on a busy parent post is redelivered
        // instead of losing its count (MODEL_RULES §5, §10).
        // It also fans announcements out to every member, so it is deployed with the longest
        // timeout (540 s): admin writes whose answers are lost stall a chunk 10 s each (MODEL_RULES
        // §22). The seed's user-by-user loop keeps the default 60 s it was written against.
        functions.onCreate(
            "social_posts", name: "onPostCreate", retry: true, timeout: has(.broadcastOneByOne) ? nil : Self.postTriggerTimeout
        ) { [self] event in try await onPostCreate(event) }
        functions.onUpdate("social_posts", name: "onPostLikeUpdate", retry: retried) { [self] event in try await onLikeUpdate(event) }
        functions.onDelete("social_posts", name: "onPostDelete", retry: true) { [self] event in
            try await onReplyDelete(event)
            try await deleteReplies(of: event.path)
        }
        // Retried on failure: a booking email refused by SendGrid (429, nothing sent) releases its
        // claim and throws, so a redelivery sends it instead of the booking going unannounced.
        functions.onCreate(
            "kiddush_sponsorships", name: "onKiddushSponsorshipCreate", retry: true, maxInstances: has(.kiddushOneInstance) ? 1 : nil
        ) { [self] event in
            try await onKiddushCreate(event)
        }
        functions.onDelete("kiddush_sponsorships", name: "onKiddushSponsorshipDelete", retry: retried) { [self] event in
            try await onKiddushDelete(event)
        }
        if propagatesNames {
            // Retried: the careful propagation is idempotent (it writes the live name), and a
            // transaction aborted on a busy honor must not leave the old name behind.
            functions.onUpdate("users", name: "onUserUpdate", retry: true) { [self] event in try await onUserUpdate(event) }
        }
        if let website { installWebsiteSync(website) }
        functions.callable("sendTestNotification") { [self] request in
            guard let email = request.auth?.email else { throw BackendError.unauthenticated("sendTestNotification") }
            await notify(email, type: "TEST", preference: nil, title: "Test", body: "Test notification",
                         data: [:], key: "test-\(request.time.unixNanoseconds)")
            return .bool(true)
        }
    }

    // MARK: Auction

    /// OUTBID to the previous winner, from the event's before/after (careful) or the live doc.
    func onOutbid(_ event: TriggerEvent) async throws {
        var previous = event.before["currentWinnerEmail"]?.stringValue
        var winner = event.after["currentWinnerEmail"]?.stringValue
        var bids = event.after["bids"]?.arrayValue ?? []
        guard bids.count > (event.before["bids"]?.arrayValue?.count ?? 0) else { return }
        if has(.outbidRereadsLiveDoc) {
            let live = await firestore.get(event.path)
            bids = live["bids"]?.arrayValue ?? []
            winner = live["currentWinnerEmail"]?.stringValue
            previous = bids.count >= 2 ? bids[bids.count - 2].mapValue?["bidderEmail"]?.stringValue : nil
        }
        guard let previous, let winner, let bid = bids.last?.mapValue, let bidId = bid["id"]?.stringValue else { return }
        if previous == winner && !has(.outbidSelfNotify) { return }
        if has(.outbidDedupInInstance), !instanceGlobals.withLock({ $0.insert("onOutbid#\(event.instance)/\(bidId)").inserted }) { return }
        let honorName = event.after["name"]?.stringValue ?? event.path.id
        await notify(previous, type: "OUTBID", preference: "outbid", title: "You've been outbid",
                     body: "Someone bid $\(bid["amount"]?.doubleValue ?? 0) on \(honorName)",
                     data: ["honorId": event.path.id, "bidId": bidId], key: bidId, dedupe: !has(.outbidNoDedup) && !has(.outbidDedupInInstance))
    }

    /// totalPledged = sum of the user's standing winning bids: +new for the new winner, −old for
    /// the previous one. Careful: applied once per bid id via a marker in one server transaction.
    func onBidPledge(_ event: TriggerEvent) async throws {
        let beforeCount = event.before["bids"]?.arrayValue?.count ?? 0
        guard let bid = event.after["bids"]?.arrayValue?.last?.mapValue,
              (event.after["bids"]?.arrayValue?.count ?? 0) > beforeCount,
              let bidId = bid["id"]?.stringValue,
              let winner = event.after["currentWinnerEmail"]?.stringValue else { return }
        let newAmount = event.after["currentBid"]?.doubleValue ?? 0
        var deltas: [String: Double] = [winner: newAmount]
        if let previous = event.before["currentWinnerEmail"]?.stringValue {
            deltas[previous, default: 0] -= event.before["currentBid"]?.doubleValue ?? 0
        }
        let users = deltas.keys.sorted()
        let amounts = users.map { deltas[$0]! }
        if has(.totalPledgedFromHonor) {
            try await pledgeFromHonor(event)
            return
        }
        if has(.totalPledgedIncrement) {
            for (user, amount) in zip(users, amounts) {
                _ = try await firestore.merge(Self.userPath(user), ["totalPledged": .increment(.double(amount))])
            }
            return
        }
        try await firestore.runTransaction { tx in
            let mark = Self.markPath("pledge-\(bidId)")
            if try await tx.get(mark).exists { return }
            for user in users { _ = try await tx.get(Self.userPath(user)) }
            for (user, amount) in zip(users, amounts) { tx.merge(Self.userPath(user), ["totalPledged": .increment(.double(amount))]) }
            tx.create(mark, ["honorId": .string(event.path.id)])
        }
    }

    /// `total-pledged-from-honor`: the honor's current winner's totalPledged set to its current
    /// bid, the previous winner's to 0, from the live honor in one server transaction.
    private func pledgeFromHonor(_ event: TriggerEvent) async throws {
        try await firestore.runTransaction { tx in
            let honor = try await tx.get(event.path)
            guard let current = honor["currentWinnerEmail"]?.stringValue else { return }
            let previous = event.before["currentWinnerEmail"]?.stringValue.flatMap { $0 == current ? nil : $0 }
            _ = try await tx.get(Self.userPath(current))
            if let previous { _ = try await tx.get(Self.userPath(previous)) }
            tx.merge(Self.userPath(current), ["totalPledged": .set(honor["currentBid"] ?? .double(0))])
            if let previous { tx.merge(Self.userPath(previous), ["totalPledged": .set(.double(0))]) }
        }
    }

    // MARK: Feed

    func onPostCreate(_ event: TriggerEvent) async throws {
        guard let post = event.after.fields, let author = post["authorEmail"]?.stringValue else { return }
        if let parentId = post["parentPostId"]?.stringValue {
            let parent = DocumentPath("social_posts", parentId)
            if !has(.replyCascadeQueryOnly), !(await firestore.get(parent).exists) {
                // The parent was deleted before this reply committed, so its cascade missed it.
                try await firestore.delete(event.path)
                return
            }
            if has(.replyCountTriggerIncrement) {
                _ = try? await firestore.update(parent, ["replyCount": .increment(1)])
            } else if has(.replyCountReadThenWrite) {
                // The literal reading: the parent is read anyway (to notify its author), and the
                // count is written from that read, two admin round trips apart.
                let read = await firestore.get(parent)
                guard let count = read["replyCount"]?.intValue else { return }
                _ = try? await firestore.update(parent, ["replyCount": .set(.int(count + 1))])
            } else {
                try await adjustOnce(mark: "reply-\(event.path.id)", create: true, parent: parent, delta: 1)
            }
            guard let parentAuthor = await firestore.get(parent)["authorEmail"]?.stringValue, parentAuthor != author else { return }
            await notify(parentAuthor, type: "POST_REPLY", preference: "postReplies", title: "New reply",
                         body: post["content"]?.stringValue ?? "", data: ["postId": parentId, "replyId": event.path.id],
                         key: event.path.id)
            return
        }
        if author != KNBRules.superAdminEmail {
            guard await firestore.get(Self.userPath(author))["isAdmin"] == .bool(true) else { return }
        }
        try await broadcast(event.path.id, author: author, content: post["content"]?.stringValue ?? "", redelivered: event.attempt > 1)
    }

    /// Reply deleted: decrement the parent's replyCount once (only if the create was counted).
    func onReplyDelete(_ event: TriggerEvent) async throws {
        guard let parentId = event.before["parentPostId"]?.stringValue else { return }
        let parent = DocumentPath("social_posts", parentId)
        if has(.replyCountTriggerIncrement) {
            _ = try? await firestore.update(parent, ["replyCount": .increment(-1)])
            return
        }
        if has(.replyCountReadThenWrite) {
            let read = await firestore.get(parent)
            guard let count = read["replyCount"]?.intValue else { return }
            _ = try? await firestore.update(parent, ["replyCount": .set(.int(count - 1))])
            return
        }
        try await adjustOnce(mark: "reply-\(event.path.id)", create: false, parent: parent, delta: -1)
    }

    /// The seed's cascade ("replies are removed with it"), done by the backend: a post's author may
    /// not delete other people's replies under the rules, the admin SDK may. A reply committed
    /// after this query finds its parent gone in `onPostCreate` and removes itself there.
    private func deleteReplies(of post: DocumentPath) async throws {
        for reply in await firestore.fetch("social_posts", where: { $0["parentPostId"] == .string(post.id) }) {
            try await firestore.delete(reply.path)
        }
    }

    /// Applies `delta` to `parent.replyCount` at most once per marker state change, in a server
    /// transaction: creating the marker counts +1, deleting it counts −1.
    private func adjustOnce(mark key: String, create: Bool, parent: DocumentPath, delta: Int64) async throws {
        try await firestore.runTransaction { tx in
            let mark = try await tx.get(Self.markPath(key))
            let parentSnapshot = try await tx.get(parent)
            guard mark.exists != create else { return }
            if create { tx.create(mark.path, ["parent": .string(parent.id)]) } else { tx.delete(mark.path) }
            if parentSnapshot.exists { tx.update(parent, ["replyCount": .increment(.int(delta))]) }
        }
    }

    func onLikeUpdate(_ event: TriggerEvent) async throws {
        let before = Set(event.before["likes"]?.arrayValue ?? []), after = event.after["likes"]?.arrayValue ?? []
        guard let author = event.after["authorEmail"]?.stringValue else { return }
        let isReply = event.after["parentPostId"]?.stringValue != nil
        for case .string(let liker) in after where !before.contains(.string(liker)) && liker != author {
            await notify(author, type: isReply ? "REPLY_LIKE" : "POST_LIKE", preference: isReply ? "replyLikes" : "postLikes",
                         title: "New like", body: "\(liker) liked your \(isReply ? "reply" : "post")",
                         data: ["postId": event.path.id, "liker": liker], key: "\(event.path.id)-\(liker)",
                         dedupe: !has(.likeNotifyPerEvent))
        }
    }

    // MARK: Kiddush

    func onKiddushCreate(_ event: TriggerEvent) async throws {
        guard let booking = event.after.fields, let date = booking["date"]?.stringValue else { return }
        let message = EmailMessage(
            to: Self.bookingRecipients, from: Self.bookingSender, subject: "Kiddush sponsorship \(date)",
            type: "KIDDUSH_BOOKING",
            body: "\(booking["sponsorName"]?.stringValue ?? "?") sponsors \(booking["tierName"]?.stringValue ?? "") on \(date) (\(event.path.id))")
        if has(.kiddushCheckSendSet) {
            let current = await firestore.get(event.path)
            guard current.exists, current["bookingEmailSentAt"] == nil else { return }
            try await sendBookingEmail(message)
            _ = try? await firestore.update(event.path, ["bookingEmailSentAt": .serverTimestamp])
        } else if has(.kiddushOneInstance) {
            try await sendBookingEmailSerialized(event, booking, message)
        } else {
            // Each delivery's own claim id: duplicates share the event id, and a claim whose commit
            // answer was lost is retried and must know the claim it finds for its own.
            let holder = firestore.newDocumentId()
            let claimed = try await claimBookingEmail(event, booking, holder: holder)
            // A duplicate (or redelivered) event finds the claim taken and sends nothing, but still
            // writes the calendar entry below (idempotent), in case the first delivery failed there.
            if claimed {
                // After the claim the email is at most once: a time-out may have sent it, so no retry.
                // A 429 that outlasted the retries sent nothing: release the claim and throw, so the
                // event is redelivered (the trigger is deployed with retries) and the email still goes.
                do {
                    try await sendBookingEmail(message)
                } catch .resourceExhausted(let reason) {
                    _ = try? await firestore.runTransaction { tx in
                        let current = try await tx.get(event.path)
                        guard current.exists, current["emailClaimId"] == .string(holder) else { return }
                        tx.update(event.path, ["emailClaimedAt": .delete, "emailClaimId": .delete])
                    }
                    throw BackendError.resourceExhausted(reason)
                } catch {}
                // Recorded only on the booking this delivery claimed: the date id may hold a
                // rebooking by now, whose own email is still to go.
                _ = try? await firestore.runTransaction { tx in
                    let current = try await tx.get(event.path)
                    guard let fields = current.fields, Self.sameBooking(fields, booking), current["emailClaimId"] == .string(holder) else { return }
                    tx.update(event.path, ["bookingEmailSentAt": .serverTimestamp])
                }
            }
        }
        let anonymous = booking["isAnonymous"] == .bool(true)
        let entry: Fields = [
            "status": "sponsored", "sponsor": .string(anonymous ? "Anonymous" : booking["sponsorName"]?.stringValue ?? ""),
            "occasion": booking["occasion"] ?? "", "source": "app", "bookingId": .string(event.path.id),
            "sponsorEmail": booking["sponsorEmail"] ?? .null, "bookedAt": booking["timestamp"] ?? .null,
            "updatedAt": .timestamp(backend.env.clock.now),
        ]
        // Written only while this booking stands (in one transaction with that read): a booking
        // cancelled before its event ran leaves no entry, and a rebooking's entry is not overwritten.
        try await firestore.runTransaction { tx in
            let current = try await tx.get(event.path)
            guard let fields = current.fields, Self.sameBooking(fields, booking) else { return }
            tx.set(DocumentPath("kiddushCalendar", date), entry)
        }
    }

    /// The `kiddush-one-instance` design: check, send, mark, trusting `maxInstances: 1` to run one
    /// event at a time. As careful as the claim otherwise: a 429 throws for a redelivery, a time-out
    /// may have sent and is not retried, and the mark is written on this booking only.
    private func sendBookingEmailSerialized(_ event: TriggerEvent, _ booking: Fields, _ message: EmailMessage) async throws {
        let current = await firestore.get(event.path)
        guard let fields = current.fields, Self.sameBooking(fields, booking), current["bookingEmailSentAt"] == nil else { return }
        do {
            try await sendBookingEmail(message)
        } catch .resourceExhausted(let reason) {
            throw BackendError.resourceExhausted(reason)
        } catch {}
        _ = try? await firestore.runTransaction { tx in
            let current = try await tx.get(event.path)
            guard let fields = current.fields, Self.sameBooking(fields, booking) else { return }
            tx.update(event.path, ["bookingEmailSentAt": .serverTimestamp])
        }
    }

    /// Claims the booking email of `event` in one server transaction: true when this delivery is
    /// to send it. The date id is reused when a cancelled date is booked again, so a late event of
    /// the cancelled booking claims nothing. A claim is a lease: a redelivery after a failure takes
    /// over a claim older than the function's timeout (its claimant is surely terminated, maybe
    /// between the claim and the send) and sends; a younger one makes it throw, to be redelivered
    /// later. A concurrent duplicate leaves a claim to its holder. So the email goes at least once,
    /// twice only when an invocation died between sending and recording it (docs/domain.md,
    /// "Function life cycle"). A claim by `holder` itself (an earlier attempt of this transaction
    /// committed and its answer was lost, MODEL_RULES §22) is this delivery's.
    private func claimBookingEmail(_ event: TriggerEvent, _ booking: Fields, holder: String) async throws -> Bool {
        let lease = backend.faults.functionTimeout + .seconds(10)
        let now = backend.env.clock.now
        let takeOver = !has(.bookingClaimNeverExpires) && event.attempt > 1
        let outcome = try await firestore.runTransaction { tx -> Bool? in
            let current = try await tx.get(event.path)
            guard current.exists, Self.sameBooking(current.fields ?? [:], booking), current["bookingEmailSentAt"] == nil else { return false }
            if let claimedAt = current["emailClaimedAt"]?.timestampValue, current["emailClaimId"] != .string(holder) {
                guard takeOver else { return false }
                guard now - claimedAt > lease else { return nil }
            }
            tx.update(event.path, ["emailClaimedAt": .serverTimestamp, "emailClaimId": .set(.string(holder))])
            return true
        }
        guard let outcome else { throw BackendError.unavailable("the booking email's claim is still held; redelivered later") }
        return outcome
    }

    /// Whether two states of `kiddush_sponsorships/{date}` are the same booking (the id is the
    /// date, so a cancelled date booked again is another booking at the same path).
    static func sameBooking(_ a: Fields, _ b: Fields) -> Bool {
        a["sponsorEmail"] == b["sponsorEmail"] && a["timestamp"] == b["timestamp"]
    }

    /// Retries only 429s (nothing was sent), no sooner than the account's rate resets
    /// (`X-RateLimit-Reset`), and throws for a redelivery when the reset is further off than the
    /// function may wait; a time-out is not retried (it may have sent).
    private func sendBookingEmail(_ message: EmailMessage) async throws(BackendError) {
        var attempt = 1
        while true {
            do {
                try await backend.email.send(message)
                return
            } catch {
                guard case .resourceExhausted = error, attempt < Self.emailRateLimitAttempts else { throw error }
            }
            let reset = backend.email.retryAfter()
            guard reset <= Self.emailResetWaitMax else { throw .resourceExhausted("SendGrid's rate resets in \(reset)") }
            try? await backend.env.clock.sleep(for: max(.seconds(Int64(2 * attempt)), reset))
            attempt += 1
        }
    }

    func onKiddushDelete(_ event: TriggerEvent) async throws {
        guard let date = event.before["date"]?.stringValue else { return }
        let calendar = DocumentPath("kiddushCalendar", date)
        if has(.kiddushDeleteClearsDate) {
            try await firestore.delete(calendar)
            return
        }
        let booking = event.before.fields ?? [:]
        try await firestore.runTransaction { tx in
            let entry = try await tx.get(calendar)
            // Only this booking's entry: after a rebooking the date's entry is the new booking's.
            guard entry["bookingId"]?.stringValue == event.path.id,
                  entry["sponsorEmail"] == booking["sponsorEmail"], entry["bookedAt"] == booking["timestamp"] else { return }
            tx.delete(calendar)
            // The website's row for the date is due back, but the page may not change for weeks:
            // forget the sync's content hash (in this transaction), so the next run rewrites the
            // date instead of skipping an unchanged page (docs/domain.md, "KNB website syncs").
            if website != nil && !has(.syncHashSkipStale) { tx.merge(Self.kiddushMeta, ["contentHash": .delete]) }
        }
    }

    // MARK: Notifications

    /// In-app notification + push to every token of `email`, honouring `notificationPrefs` and,
    /// when `dedupe`, claiming `users/{email}/notifications/{type}-{key}` with create() first so
    /// a duplicate event sends nothing. UNREGISTERED tokens are deleted.
    func notify(_ email: String, type: String, preference: String?, title: String, body: String,
                data: [String: String], key: String, dedupe: Bool = true) async {
        let user = await firestore.get(Self.userPath(email))
        guard let fields = user.fields else { return }
        if let preference, fields["notificationPrefs"]?.mapValue?[preference] == .bool(false) { return }
        // One literal: a field added afterwards would double the entries' capacity (~200 B a
        // notification, kept as long as the notification is); in key order, so it is built
        // without searching.
        let record: Fields = [
            "body": .string(body), "createdAt": .timestamp(backend.env.clock.now),
            "data": .map(Fields(uniqueKeysWithValues: data.map { ($0.key, Value.string($0.value)) })),
            "isRead": false, "key": .string(key), "title": .string(title), "type": .string(type),
        ]
        let notifications = "users/\(email)/notifications"
        do {
            if dedupe {
                try await firestore.create(DocumentPath(notifications, "\(type)-\(key)"), record)
            } else {
                try await firestore.add(notifications, record)
            }
        } catch .deadlineExceeded {
            // The answer was lost (MODEL_RULES §22): the write may have landed. An add is not
            // de-duplicated anyway; a create is this delivery's if the document holds its record
            // (its `createdAt` is this invocation's instant), another delivery's otherwise.
            if dedupe, await firestore.get(DocumentPath(notifications, "\(type)-\(key)")).fields != record { return }
        } catch {
            return  // ALREADY_EXISTS: this event was handled before.
        }
        let tokens = (fields["fcmTokens"]?.mapValue?.keys).map { $0.sorted() } ?? []
        let message = PushMessage(recipient: email, type: type, title: title, body: body, data: data)
        var start = 0
        while start < tokens.count {
            let batch = Array(tokens[start..<min(start + backend.faults.fcmMaxTokensPerCall, tokens.count)])
            start += batch.count
            guard let outcomes = try? await backend.messaging.sendEachForMulticast(tokens: batch, message: message) else { continue }
            for (token, outcome) in zip(batch, outcomes) where outcome == .unregistered && !has(.staleTokensKept) {
                _ = try? await firestore.update(Self.userPath(email), ["fcmTokens.\(token)": .delete])
            }
        }
    }
}
