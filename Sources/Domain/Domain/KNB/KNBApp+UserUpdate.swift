import SimulatedFirebase

extension KNBApp {
    /// `onUserUpdate` ("Propagates name changes across posts, replies, and bids"): when
    /// `users/{email}.name` changes, the user's bids in `honors.bids` (and `currentWinner` where
    /// they lead) and their posts' and replies' `authorName` take the new name.
    ///
    /// Careful: one server transaction per honor (and per post) that reads the user's *live*
    /// name with the document, so a bid committed meanwhile aborts and retries the transaction
    /// instead of being overwritten, and an older event handled last writes the newest name.
    func onUserUpdate(_ event: TriggerEvent) async throws {
        guard let eventName = event.after["name"]?.stringValue, event.before["name"]?.stringValue != eventName else { return }
        let email = event.path.id
        let honors = await firestore.fetch("honors") { Self.hasBid(by: email, in: $0.fields ?? [:]) }
        let posts = await firestore.fetch("social_posts", whereField: "authorEmail", isEqualTo: .string(email))
        if has(.userUpdateReadThenWrite) {
            for honor in honors {
                let read = await firestore.get(honor.path)
                guard let fields = read.fields, let updates = Self.renamed(fields, email: email, to: eventName) else { continue }
                _ = try? await firestore.update(honor.path, updates)
            }
            for post in posts {
                _ = try? await firestore.update(post.path, ["authorName": .set(.string(eventName))])
            }
            return
        }
        let user = Self.userPath(email)
        let trustsEvent = has(.userUpdateEventName)
        for honor in honors {
            try await firestore.runTransaction { tx in
                let name = trustsEvent ? eventName : try await tx.get(user)["name"]?.stringValue
                let current = try await tx.get(honor.path)
                guard let name, let fields = current.fields, let updates = Self.renamed(fields, email: email, to: name) else { return }
                tx.update(honor.path, updates)
            }
        }
        for post in posts {
            try await firestore.runTransaction { tx in
                let name = trustsEvent ? eventName : try await tx.get(user)["name"]?.stringValue
                let current = try await tx.get(post.path)
                guard let name, current.exists, current["authorName"]?.stringValue != name else { return }
                tx.update(post.path, ["authorName": .set(.string(name))])
            }
        }
    }

    /// Whether an honor's `bids` holds a bid by `email`.
    static func hasBid(by email: String, in honor: Fields) -> Bool {
        (honor["bids"]?.arrayValue ?? []).contains { $0.mapValue?["bidderEmail"]?.stringValue == email }
    }

    /// The honor update that renames `email`'s bids (and `currentWinner` if they lead) to
    /// `name`, keeping every other bid and field; nil when nothing would change.
    static func renamed(_ honor: Fields, email: String, to name: String) -> FieldUpdates? {
        var changed = false
        let bids: [Value] = (honor["bids"]?.arrayValue ?? []).map { bid in
            guard var fields = bid.mapValue, fields["bidderEmail"]?.stringValue == email, fields["bidderName"]?.stringValue != name else { return bid }
            fields["bidderName"] = .string(name)
            changed = true
            return .map(fields)
        }
        var updates: FieldUpdates = [:]
        if changed { updates["bids"] = .set(.array(bids)) }
        if honor["currentWinnerEmail"]?.stringValue == email, honor["currentWinner"]?.stringValue != name {
            updates["currentWinner"] = .set(.string(name))
        }
        return updates.isEmpty ? nil : updates
    }
}
