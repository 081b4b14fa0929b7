import Domain
import SimulatedFirebase
import Testing

/// A KNB app with users alice, bob, carol (tokens tok-<name>) and admin dana.
func makeKNB(seed: UInt64 = 1, faults: BackendFaults = .none, variant: KNBVariant = .careful) async throws
    -> (app: KNBApp, alice: KNBClient, bob: KNBClient, carol: KNBClient, admin: KNBClient)
{
    let app = KNBApp(backend: Backend(env: testEnvironment(seed: seed), faults: faults), variant: variant)
    var clients: [KNBClient] = []
    for name in ["alice", "bob", "carol", "dana"] {
        let client = app.client(email: "\(name)@knb.org", name: name)
        try await client.register()
        try await client.registerToken("tok-\(name)")
        clients.append(client)
    }
    try await app.backend.firestore.update(DocumentPath("users", "dana@knb.org"), ["isAdmin": .set(true)])
    try await clients[3].createHonor(id: "h1", name: "Petichah", buyNowPrice: 100)
    return (app, clients[0], clients[1], clients[2], clients[3])
}

func duplicatingFaults() -> BackendFaults {
    var faults = BackendFaults.none
    faults.triggerDuplicateProbability = 1
    return faults
}

@Suite struct KNBAuctionTests {
    let h1 = DocumentPath("honors", "h1")

    @Test func bidsStrictlyIncreaseAndStopAfterBuyNow() async throws {
        let knb = try await makeKNB()
        #expect(try await knb.alice.placeBid(honorId: "h1", amount: 10) == "h1-b1")
        await #expect(throws: KNBError.bidTooLow(amount: 10, currentBid: 10)) { try await knb.bob.placeBid(honorId: "h1", amount: 10) }
        try await knb.bob.buyNow(honorId: "h1")
        await #expect(throws: KNBError.honorSold("h1")) { try await knb.carol.placeBid(honorId: "h1", amount: 500) }
        let honor = await knb.app.backend.firestore.get(h1)
        #expect(honor["isSold"] == true && honor["currentBid"] == .double(100) && honor["currentWinner"] == "bob")
        #expect(honor["bids"]?.arrayValue?.count == 2)
    }

    @Test func rulesRejectBidsThatSkipTheTransactionContract() async throws {
        let knb = try await makeKNB()
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        // Two new bid entries at once, a lower bid, and a non-admin honor creation are denied.
        let two = await backendError {
            try await knb.bob.firestore.updateData(h1, ["currentBid": .set(.double(30)), "bids": .arrayUnion([["id": "x"], ["id": "y"]])])
        }
        #expect(two == .permissionDenied(operation: "update", path: "honors/h1"))
        let lower = await backendError {
            try await knb.bob.firestore.updateData(h1, ["currentBid": .set(.double(5)), "bids": .arrayUnion([["id": "x"]])])
        }
        #expect(lower?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await knb.bob.createHonor(id: "h2", name: "x", buyNowPrice: 1) }?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await knb.bob.firestore.delete(h1) }?.code == "PERMISSION_DENIED")
    }

    @Test func outbidGoesOnlyToThePreviousWinnerOncePerBidEvenUnderDuplicates() async throws {
        let knb = try await makeKNB(faults: duplicatingFaults())
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        try await knb.alice.placeBid(honorId: "h1", amount: 20)  // raising your own bid: no OUTBID
        try await knb.bob.placeBid(honorId: "h1", amount: 30)
        await knb.app.backend.waitUntilIdle()
        let outbids = knb.app.backend.outbox.records(type: "OUTBID")
        #expect(outbids.map(\.recipient) == ["alice@knb.org"])
        #expect(outbids.first?.payload["bidId"] == "h1-b3")
    }

    @Test func outbidHonoursNotificationPreferences() async throws {
        let knb = try await makeKNB()
        try await knb.alice.setPreference("outbid", false)
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        try await knb.bob.placeBid(honorId: "h1", amount: 20)
        await knb.app.backend.waitUntilIdle()
        #expect(knb.app.backend.outbox.records(type: "OUTBID").isEmpty)
    }

    @Test func totalPledgedDoesNotDriftUnderDuplicatesButTheIncrementVariantDoes() async throws {
        for variant: KNBVariant in [.careful, .totalPledgedIncrement] {
            let knb = try await makeKNB(faults: duplicatingFaults(), variant: variant)
            try await knb.alice.placeBid(honorId: "h1", amount: 10)
            await knb.app.backend.waitUntilIdle()
            try await knb.bob.placeBid(honorId: "h1", amount: 25)
            await knb.app.backend.waitUntilIdle()
            let alice = await knb.app.backend.firestore.get(DocumentPath("users", "alice@knb.org"))["totalPledged"]
            let bob = await knb.app.backend.firestore.get(DocumentPath("users", "bob@knb.org"))["totalPledged"]
            if variant == .careful {
                #expect(alice == .double(0) && bob == .double(25))
            } else {
                #expect(bob == .double(50))  // each bid counted twice
            }
        }
    }

    @Test func selfNotifyAndNoDedupVariantsMisbehave() async throws {
        // Every trigger event is delivered twice (duplicatingFaults).
        let selfNotify = try await makeKNB(faults: duplicatingFaults(), variant: .outbidSelfNotify)
        try await selfNotify.alice.placeBid(honorId: "h1", amount: 10)
        try await selfNotify.alice.placeBid(honorId: "h1", amount: 20)  // raises her own bid
        await selfNotify.app.backend.waitUntilIdle()
        #expect(selfNotify.app.backend.outbox.records(type: "OUTBID", recipient: "alice@knb.org").count == 1)
        let noDedup = try await makeKNB(faults: duplicatingFaults(), variant: .outbidNoDedup)
        try await noDedup.alice.placeBid(honorId: "h1", amount: 10)
        try await noDedup.bob.placeBid(honorId: "h1", amount: 20)
        await noDedup.app.backend.waitUntilIdle()
        #expect(noDedup.app.backend.outbox.records(type: "OUTBID", recipient: "alice@knb.org").count == 2)
    }

    @Test func unregisteredTokensAreDeleted() async throws {
        let knb = try await makeKNB()
        knb.app.backend.messaging.unregister(token: "tok-alice")
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        try await knb.bob.placeBid(honorId: "h1", amount: 20)
        await knb.app.backend.waitUntilIdle()
        let tokens = await knb.app.backend.firestore.get(DocumentPath("users", "alice@knb.org"))["fcmTokens"]
        #expect(tokens == .map([:]))
    }
}

@Suite struct KNBFeedTests {
    @Test func postValidation() async throws {
        let knb = try await makeKNB()
        await #expect(throws: KNBError.postTooLong(characters: 141)) { try await knb.alice.createPost(String(repeating: "x", count: 141)) }
        await #expect(throws: KNBError.tooManyImages(5)) { try await knb.alice.createPost("hi", imageCount: 5) }
        await #expect(throws: KNBError.emptyPost) { try await knb.alice.createPost("") }
        let spoofed = await backendError {
            try await knb.alice.firestore.add("social_posts", ["authorEmail": "bob@knb.org", "content": "hi"])
        }
        #expect(spoofed?.code == "PERMISSION_DENIED")
        _ = try await knb.alice.createPost("", imageCount: 4)
    }

    @Test func likesStayConsistentAndDoubleTapsAndNonLikerUnlikesAreNoOps() async throws {
        let knb = try await makeKNB()
        let post = try await knb.alice.createPost("hello")
        try await knb.bob.like(post.id)
        try await knb.bob.like(post.id)
        try await knb.carol.unlike(post.id)
        let snapshot = await knb.app.backend.firestore.get(post)
        #expect(snapshot["likes"] == ["bob@knb.org"] && snapshot["likeCount"] == 1)
        try await knb.bob.unlike(post.id)
        #expect(await knb.app.backend.firestore.get(post)["likeCount"] == 0)
    }

    @Test func likeVariantsDrift() async throws {
        let knb = try await makeKNB(variant: .likeArrayUnionIncrement)
        let post = try await knb.alice.createPost("hello")
        try await knb.bob.like(post.id)
        try await knb.bob.like(post.id)
        #expect(await knb.app.backend.firestore.get(post)["likeCount"] == 2)  // one liker, count 2
        let unliking = try await makeKNB(variant: .unlikeNonLikerDecrements)
        let other = try await unliking.alice.createPost("hello")
        try await unliking.carol.unlike(other.id)
        try await unliking.carol.unlike(other.id)
        try await unliking.carol.unlike(other.id)
        #expect(await unliking.app.backend.firestore.get(other)["likeCount"] == -3)
    }

    @Test func likeNotificationsGoToAuthorOncePerLikerNotToSelf() async throws {
        let knb = try await makeKNB(faults: duplicatingFaults())
        let post = try await knb.alice.createPost("hello")
        try await knb.alice.like(post.id)
        try await knb.bob.like(post.id)
        let reply = try await knb.bob.reply(to: post.id, "hi back")
        try await knb.alice.like(reply.id)
        await knb.app.backend.waitUntilIdle()
        let outbox = knb.app.backend.outbox
        #expect(outbox.records(type: "POST_LIKE").map(\.recipient) == ["alice@knb.org"])
        #expect(outbox.records(type: "POST_REPLY").map(\.recipient) == ["alice@knb.org"])
        #expect(outbox.records(type: "REPLY_LIKE").map(\.recipient) == ["bob@knb.org"])
    }

    @Test(arguments: [false, true]) func replyCountUnderDuplicates(literal: Bool) async throws {
        let knb = try await makeKNB(faults: duplicatingFaults(), variant: literal ? .replyCountTriggerIncrement : .careful)
        let post = try await knb.alice.createPost("hello")
        for i in 0..<3 { try await knb.bob.reply(to: post.id, "r\(i)") }
        await knb.app.backend.waitUntilIdle()
        #expect(await knb.app.backend.firestore.get(post)["replyCount"] == (literal ? 6 : 3))
    }

    @Test func editByAuthorOnlyAndDeleteCascadesToReplies() async throws {
        let knb = try await makeKNB()
        let post = try await knb.alice.createPost("hello")
        _ = try await knb.bob.reply(to: post.id, "r1")
        try await knb.alice.edit(post.id, content: "edited")
        #expect(await backendError { try await knb.bob.edit(post.id, content: "hijack") }?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await knb.bob.deletePost(post.id) }?.code == "PERMISSION_DENIED")
        try await knb.admin.deletePost(post.id)
        await knb.app.backend.waitUntilIdle()  // the replies go in the onPostDelete trigger
        #expect(knb.app.backend.firestore.query("social_posts").isEmpty)
    }

    @Test func adminPostNotifiesEveryoneElseWithPreferences() async throws {
        let knb = try await makeKNB(faults: duplicatingFaults())
        try await knb.carol.setPreference("adminPosts", false)
        _ = try await knb.admin.createPost("Shul picnic Sunday")
        _ = try await knb.alice.createPost("not an admin")
        await knb.app.backend.waitUntilIdle()
        #expect(knb.app.backend.outbox.records(type: "ADMIN_POST").map(\.recipient).sorted() == ["alice@knb.org", "bob@knb.org"])
    }
}

@Suite struct KNBBookingTests {
    @Test func oneKiddushPerShabbatOneEmailAndCalendarCleanup() async throws {
        let knb = try await makeKNB(faults: duplicatingFaults())
        let booking = try await knb.alice.bookKiddush(date: "2026-02-07", occasion: "birthday", tierName: "Gold", tierAmount: 500)
        await #expect(throws: KNBError.dateAlreadyBooked("2026-02-07")) {
            try await knb.bob.bookKiddush(date: "2026-02-07", occasion: "x", tierName: "Silver", tierAmount: 250)
        }
        await knb.app.backend.waitUntilIdle()
        #expect(knb.app.backend.outbox.records(type: "KIDDUSH_BOOKING").count == KNBApp.bookingRecipients.count)
        let calendar = DocumentPath("kiddushCalendar", "2026-02-07")
        #expect(await knb.app.backend.firestore.get(calendar)["status"] == "sponsored")
        // Bob's app refuses to cancel Alice's booking (it is not his), and the rules refuse the raw delete.
        await #expect(throws: KNBError.bookingChanged("2026-02-07")) { try await knb.bob.cancelKiddush(booking) }
        #expect(await backendError { try await knb.bob.firestore.delete(booking) }?.code == "PERMISSION_DENIED")
        try await knb.alice.cancelKiddush(booking)
        await knb.app.backend.waitUntilIdle()
        #expect(await knb.app.backend.firestore.get(calendar).exists == false)
        #expect(await backendError { try await knb.bob.firestore.setData(calendar, ["status": "x"]) }?.code == "PERMISSION_DENIED")
    }

    @Test func randomIdVariantsDoubleBook() async throws {
        let knb = try await makeKNB(variant: .kiddushRandomId)
        _ = try await knb.alice.bookKiddush(date: "2026-02-07", occasion: "a", tierName: "Gold", tierAmount: 500)
        _ = try await knb.bob.bookKiddush(date: "2026-02-07", occasion: "b", tierName: "Gold", tierAmount: 500)
        #expect(knb.app.backend.firestore.query("kiddush_sponsorships").count == 2)
        let seats = try await makeKNB(variant: .seatRandomId)
        _ = try await seats.alice.reserveSeat(row: "A", number: 1)
        _ = try await seats.bob.reserveSeat(row: "A", number: 1)
        #expect(seats.app.backend.firestore.query("seat_reservations").count == 2)
    }

    @Test func setDataVariantLetsAnAdminOverwriteABooking() async throws {
        let knb = try await makeKNB(variant: .kiddushSetDataOverwrite)
        let path = try await knb.alice.bookKiddush(date: "2026-02-07", occasion: "a", tierName: "Gold", tierAmount: 500)
        #expect(await backendError { try await knb.bob.bookKiddush(date: "2026-02-07", occasion: "b", tierName: "G", tierAmount: 1) }?.code
            == "PERMISSION_DENIED")
        _ = try await knb.admin.bookKiddush(date: "2026-02-07", occasion: "c", tierName: "G", tierAmount: 1)
        #expect(await knb.app.backend.firestore.get(path)["sponsorEmail"] == "dana@knb.org")  // alice's booking is gone
    }

    @Test func seatsAreOnePerSeatImmutableAndReleasedByOwnerOrAdmin() async throws {
        let knb = try await makeKNB()
        let seat = try await knb.alice.reserveSeat(row: "A", number: 1)
        await #expect(throws: KNBError.seatTaken("A-1")) { try await knb.bob.reserveSeat(row: "A", number: 1) }
        #expect(await backendError { try await knb.alice.firestore.updateData(seat, ["row": .set("B")]) }?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await knb.bob.releaseAnySeat(seat) }?.code == "PERMISSION_DENIED")
        try await knb.bob.releaseSeat(seat)  // not Bob's: left as it is
        #expect(await knb.app.backend.firestore.get(seat)["reservedBy"] == "alice@knb.org")
        try await knb.alice.releaseSeat(seat)
        try await knb.alice.releaseSeat(seat)  // a retry: already released
        #expect(await !knb.app.backend.firestore.get(seat).exists)
        _ = try await knb.bob.reserveSeat(row: "A", number: 1)
        try await knb.admin.releaseAnySeat(seat)
        #expect(await !knb.app.backend.firestore.get(seat).exists)
    }
}

@Suite struct KNBRolesAndDeterminismTests {
    @Test func rolesTable() async throws {
        let knb = try await makeKNB()
        let users = DocumentPath("users", "bob@knb.org")
        #expect(await backendError { try await knb.bob.setAdmin("bob@knb.org", true) }?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await knb.admin.setAdmin("bob@knb.org", true) }?.code == "PERMISSION_DENIED")
        #expect(await backendError { try await knb.alice.firestore.updateData(users, ["name": .set("x")]) }?.code == "PERMISSION_DENIED")
        let superAdmin = knb.app.client(email: KNBRules.superAdminEmail, name: "root")
        try await superAdmin.setAdmin("bob@knb.org", true)
        try await knb.bob.createHonor(id: "h2", name: "Maftir", buyNowPrice: 50)
        let notifications = DocumentPath("users/alice@knb.org/notifications", "n")
        #expect(await backendError { _ = try await knb.bob.firestore.get(notifications) }?.code == "PERMISSION_DENIED")
        #expect(await backendError { _ = try await knb.bob.firestore.get(DocumentPath("kiddushMeta", "lastSync")) }?.code == "PERMISSION_DENIED")
        let signedOut = knb.app.backend.client(auth: nil, label: "anon")
        _ = try await signedOut.get(DocumentPath("kiddushCalendar", "2026-02-07"))  // public read
        #expect(await backendError { _ = try await signedOut.get(DocumentPath("honors", "h1")) }?.code == "PERMISSION_DENIED")
    }

    @Test func variantNamesAreUniqueAndParse() throws {
        let names = KNBVariant.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        #expect(try KNBVariant.named("seat-random-id") == .seatRandomId)
        #expect(try KNBVariant.named(nil) == .careful)
        #expect(throws: AppVariantError.self) { try KNBVariant.named("nope") }
    }

    @Test func sameInputsAndSeedGiveTheSameOutbox() async throws {
        func run(seed: UInt64) async throws -> [String] {
            var faults = BackendFaults.none
            faults.triggerDuplicateProbability = 0.3
            faults.fcmTokenFailureProbability = 0.3
            let knb = try await makeKNB(seed: seed, faults: faults)
            for (i, bidder) in [knb.alice, knb.bob, knb.carol, knb.alice, knb.bob].enumerated() {
                try await bidder.placeBid(honorId: "h1", amount: Double(10 * (i + 1)))
                await knb.app.backend.waitUntilIdle()
            }
            return knb.app.backend.outbox.records.map { "\($0.type) \($0.recipient) \($0.payload["bidId"] ?? "")" }.sorted()
        }
        let first = try await run(seed: 42), second = try await run(seed: 42)
        #expect(first == second)
        #expect(!first.isEmpty)
    }
}

@Suite struct KNBListenerTests {
    @Test func managerCacheFollowsHonorsPostsAndSeats() async throws {
        let knb = try await makeKNB()
        let (cache, listeners) = knb.bob.startListening()
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        let post = try await knb.alice.createPost("hello")
        let seat = try await knb.alice.reserveSeat(row: "B", number: 2)
        try await knb.alice.releaseSeat(seat)
        await knb.app.backend.waitUntilIdle()
        #expect(await cache.honors["h1"]?["currentBid"] == .double(10))
        #expect(await cache.posts[post.id]?["content"] == "hello")
        #expect(await cache.seats.isEmpty)
        for listener in listeners { listener.remove() }
    }
}

/// The seed's sign-in flow "creates or updates" the user document; the careful post delete lets
/// the author remove a post that others replied to (seed: author or admin, replies go with it).
@Suite struct KNBDesignDocumentTests {
    @Test func signingInAgainKeepsPledgesTokensAndPreferences() async throws {
        let knb = try await makeKNB()
        try await knb.alice.placeBid(honorId: "h1", amount: 25)
        try await knb.alice.setPreference("outbid", false)
        await knb.app.backend.waitUntilIdle()
        let user = DocumentPath("users", "alice@knb.org")
        let before = await knb.app.backend.firestore.get(user)
        #expect(before["totalPledged"] == .double(25))
        let again = knb.app.client(email: "alice@knb.org", name: "Alice Cohen")
        try await again.register()
        let after = await knb.app.backend.firestore.get(user)
        #expect(after["name"] == "Alice Cohen")
        #expect(after["totalPledged"] == .double(25))
        #expect(after["fcmTokens"] == before["fcmTokens"])
        #expect(after["notificationPrefs"]?.mapValue?["outbid"] == false)
    }

    @Test func authorDeletesTheirPostAfterOthersRepliedAndTheRepliesGoWithIt() async throws {
        let knb = try await makeKNB(faults: duplicatingFaults())
        let post = try await knb.alice.createPost("hello")
        _ = try await knb.bob.reply(to: post.id, "r1")
        _ = try await knb.carol.reply(to: post.id, "r2")
        _ = try await knb.alice.reply(to: post.id, "thanks")
        await knb.app.backend.waitUntilIdle()
        try await knb.alice.deletePost(post.id)
        await knb.app.backend.waitUntilIdle()
        #expect(knb.app.backend.firestore.query("social_posts").isEmpty)
        // A reply's own author may still delete just the reply; the parent's count follows.
        let second = try await knb.alice.createPost("again")
        let reply = try await knb.bob.reply(to: second.id, "r")
        await knb.app.backend.waitUntilIdle()
        try await knb.bob.deletePost(reply.id)
        await knb.app.backend.waitUntilIdle()
        #expect(await knb.app.backend.firestore.get(second)["replyCount"] == 0)
        #expect(await backendError { try await knb.carol.deletePost(second.id) }?.code == "PERMISSION_DENIED")
    }
}
