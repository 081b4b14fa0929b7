import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

extension LoadProfile {
    // MARK: - Profiles

    /// `placeBid` on 500 KNB honors by a pool of 2,000 users, with the scenario's own bidder
    /// (`KNBBidding.placeBid`: read, outbid, retry a lost race; 15 % raise their own winning bid,
    /// 10 % double taps) and defaults (5 % duplicate trigger events).
    static let auctionRace = LoadProfile(
        scenario: "auction-race", summary: "placeBid on 500 honors by a pool of 2,000 users (read, outbid, retry a lost race up to 3 times; 10 % double taps)",
        operations: ["placeBid"], users: 2_000, faults: KNBScenarioSupport.faults(duplicatePercent: 5), runsOnRealServer: true
    ) { setup in
        let app = KNBScenarioSupport.makeApp(setup)
        let retry = ClientRetry.on(setup.env.clock)
        let admin = await KNBScenarioSupport.signUp(app, email: "admin@knb.org", name: "Admin", admin: true, retry: retry)
        let honorIds = (0..<500).map { "h\($0)" }
        if app.backend.remote != nil {  // on a real server, in one batch (the same documents)
            _ = try? await retry { try await app.importHonors(honorIds.map { ($0, "Honor \($0)", AuctionRaceScenario.buyNowPrice) }) }
        } else {
            await createHonors(honorIds, by: admin, retry: retry)
        }
        let users = await signUpPool(app, count: 2_000, retry: retry)
        let checks = LoadCheckLog([
            AuctionRaceScenario.Check.bidsStrictlyIncreasing, AuctionRaceScenario.Check.winnerIsHighestBidder,
            AuctionRaceScenario.Check.noBidAfterSold, AuctionRaceScenario.Check.soldByBuyNow,
        ])
        return Workload(checks: checks, settle: { await settleHonors(app, checks) }) { index, user, recorder in
            let draw = LoadDraw(index)
            let placed = await KNBBidding.placeBid(
                users[user % users.count], honorId: honorIds[index % honorIds.count], increment: Double(1 + draw.below(20, salt: 1)),
                raiseOwn: draw.below(100, salt: 2) < 15, doubleTap: draw.below(100, salt: 3) < 10,
                buyNowPrice: AuctionRaceScenario.buyNowPrice, retry: retry, backend: app.backend, observer: SilentObserver())
            recorder.record("placeBid", failed: !placed)
        }
    }

    /// Once the load settled: the auction-race scenario's checks of every honor, on the honors as
    /// a function reads them (from the server in real mode).
    private static func settleHonors(_ app: KNBApp, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()  // triggers and their retries (bounded in real mode)
        for observation in AuctionRaceScenario.honorObservations(await app.backend.firestore.fetch("honors")).observations {
            switch observation {
            case .always(let check, let failure): checks.always(check, failure: failure)
            case .sometimes(let goal, let reached): checks.sometimes(goal, reached)
            case .batch(let check, let count, let failure): checks.always(check, observations: count, firstFailure: failure)
            }
        }
    }

    /// The auction's honors, created concurrently by the admin's device (500 sequential round trips
    /// are a minute of wall time).
    private static func createHonors(_ honorIds: [String], by admin: KNBClient, retry: ClientRetry) async {
        await withTaskGroup(of: Void.self) { group in
            for id in honorIds {
                group.addTask {
                    _ = try? await retry { try await admin.createHonor(id: id, name: "Honor \(id)", buyNowPrice: AuctionRaceScenario.buyNowPrice) }
                }
            }
        }
    }

    /// Announcements by the super admin to a pool of 1,000 members (each fanned out to all of
    /// them), with replies to the latest announcement and likes of those replies.
    static let adminBroadcast = LoadProfile(
        scenario: "admin-broadcast", summary: "announce (2 %) to a pool of 1,000 members (every tenth turned them off), reply (38 %) to the latest one, likeReply (60 %)",
        operations: ["announce", "reply", "likeReply"], users: 1_000, faults: .default, runsOnRealServer: true
    ) { setup in
        let app = KNBScenarioSupport.makeApp(setup)
        let retry = ClientRetry.on(setup.env.clock)
        let admin = await KNBScenarioSupport.signUp(app, email: KNBRules.superAdminEmail, name: "Admin", retry: retry)
        let users = await signUpPool(app, count: 1_000, retry: retry)
        let latest = LatestPosts()
        // Every tenth member turns announcements off; one whose change was not confirmed is judged neither way.
        var audience = BroadcastLoadAudience(wanting: [], optedOut: [admin.email])
        for (index, member) in users.enumerated() {
            guard index % 10 == 9 else {
                audience.wanting.append(member.email)
                continue
            }
            if (try? await retry { try await member.setPreference("adminPosts", false) }) != nil { audience.optedOut.append(member.email) }
        }
        if let first = try? await retry({ try await admin.createPost("Announcement") }) { latest.post(first.id) }
        let checks = LoadCheckLog(adminBroadcastChecks)
        return Workload(checks: checks, settle: { [audience] in await settleAnnouncements(app, audience: audience, posted: latest, checks) }) { index, user, recorder in
            let draw = LoadDraw(index)
            let client = users[user % users.count]
            switch draw.below(100, salt: 1) {
            case 0..<2:
                let posted = try? await retry { try await admin.createPost("Announcement \(index)") }
                if let posted { latest.post(posted.id) }
                recorder.record("announce", failed: posted == nil)
            case 2..<40:
                let reply = try? await retry { try await client.reply(to: latest.post ?? "missing", "Reply \(index)") }
                if let reply { latest.reply(reply.id) }
                recorder.record("reply", failed: reply == nil)
            default:
                let target = latest.reply ?? latest.post ?? "missing"
                let failed = (try? await retry { try await client.like(target) }) == nil
                recorder.record("likeReply", failed: failed)
            }
        }
    }

    /// like / unlike / reply on one KNB post by a pool of users.
    static let likeStorm = LoadProfile(
        scenario: "like-storm", summary: "like (50 %), unlike (25 %), reply (25 %) on one post by a pool of 20 users",
        operations: ["like", "unlike", "reply"], users: 20, faults: KNBScenarioSupport.faults(duplicatePercent: 10), runsOnRealServer: true
    ) { setup in
        let app = KNBScenarioSupport.makeApp(setup)
        let retry = ClientRetry.on(setup.env.clock)
        let author = await KNBScenarioSupport.signUp(app, email: "author@knb.org", name: "Author", retry: retry)
        let post = (try? await retry { try await author.createPost("The post") })?.id ?? "missing"
        let users = await signUpPool(app, count: 20, retry: retry)
        let checks = LoadCheckLog([
            LikeStormScenario.Check.likeCountMatchesLikes, LikeStormScenario.Check.likeCountNotNegative, LikeStormScenario.Check.replyCountMatchesReplies,
        ])
        return Workload(checks: checks, settle: { await settlePosts(app, checks) }) { index, user, recorder in
            let client = users[user % users.count]
            switch index % 4 {
            case 0, 2:
                let failed = (try? await retry { try await client.like(post) }) == nil
                recorder.record("like", failed: failed)
            case 1:
                let failed = (try? await retry { try await client.unlike(post) }) == nil
                recorder.record("unlike", failed: failed)
            default:
                let failed = (try? await retry { try await client.reply(to: post, "Reply from \(client.name)") }) == nil
                recorder.record("reply", failed: failed)
            }
        }
    }

    /// Once the load settled (the reply counter's trigger included): like-storm's counter checks on
    /// every post, as a function reads the posts (from the server in real mode).
    private static func settlePosts(_ app: KNBApp, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()  // triggers and their retries (bounded in real mode)
        let posts = await app.backend.firestore.fetch("social_posts")
        for post in posts {
            let likes = post["likes"]?.arrayValue?.count ?? 0
            let count = post["likeCount"]?.intValue ?? 0
            checks.always(LikeStormScenario.Check.likeCountMatchesLikes, failure: count == Int64(likes) ? nil : "post \(post.id) likeCount \(count) but \(likes) likes")
            checks.always(LikeStormScenario.Check.likeCountNotNegative, failure: count >= 0 ? nil : "post \(post.id) likeCount \(count)")
        }
        for post in posts where post["parentPostId"] == .null {
            let replies = posts.count { $0["parentPostId"] == .string(post.id) }
            let count = post["replyCount"]?.intValue ?? -1
            checks.always(LikeStormScenario.Check.replyCountMatchesReplies, failure: count == Int64(replies) ? nil : "post \(post.id) replyCount \(count) but \(replies) replies")
        }
    }

    /// reserve / release on 20 KNB seats by a pool of users.
    static let seatContention = LoadProfile(
        scenario: "seat-contention", summary: "reserveSeat on one of 20 seats by a pool of 40 users; a won seat is held 0.5-2 s, then releaseSeat",
        operations: ["reserveSeat", "releaseSeat"], users: 40, faults: KNBScenarioSupport.faults(duplicatePercent: 0), runsOnRealServer: true
    ) { setup in
        let app = KNBScenarioSupport.makeApp(setup)
        let retry = ClientRetry.on(setup.env.clock)
        let users = await signUpPool(app, count: 40, retry: retry)
        let checks = LoadCheckLog([SeatContentionScenario.Check.noSeatDoubleBooked, SeatContentionScenario.Check.seatTaken])
        let holds = SeatHolds()
        let clock = setup.env.clock
        return Workload(checks: checks, settle: { await settleSeats(app, checks) }) { index, user, recorder in
            let client = users[user % users.count]
            let seat = 1 + (index * 7 + user) % 20
            let path: DocumentPath?
            var failed = false
            do {
                path = try await retry { try await client.reserveSeat(row: "A", number: seat) }
            } catch KNBError.seatTaken {
                path = nil  // a business outcome, not a failure
                checks.sometimes(SeatContentionScenario.Check.seatTaken, true)
            } catch {
                path = nil
                failed = true
            }
            recorder.record("reserveSeat", failed: failed)
            guard let path else { return }
            let others = holds.reserved(seat, by: user, at: recorder.now())
            checks.always(SeatContentionScenario.Check.noSeatDoubleBooked, failure: others.isEmpty ? nil
                : "user \(user) was told seat A-\(seat) is reserved while user \(others.map(String.init).joined(separator: " and ")) still held it")
            // The user keeps the seat a while (contention for it), then gives it back.
            try? await clock.sleep(for: .milliseconds(500 + LoadDraw(index).below(1_500, salt: 1)))
            let start = recorder.now()
            holds.released(seat, by: user, at: start)
            let releaseFailed = (try? await retry { try await client.releaseSeat(path) }) == nil
            recorder.record("releaseSeat", start: start, failed: releaseFailed)
        }
    }

    /// Once the load settled: no seat has two reservations on the server (read as a function
    /// reads it, so from the server in real mode).
    private static func settleSeats(_ app: KNBApp, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()  // triggers and their retries (bounded in real mode)
        var holders: [String: [String]] = [:]
        for reservation in await app.backend.firestore.fetch("seat_reservations") {
            let seat = "\(reservation["row"]?.stringValue ?? "?")-\(reservation["number"]?.intValue ?? -1)"
            holders[seat, default: []].append(reservation["reservedBy"]?.stringValue ?? "?")
        }
        for seat in holders.keys.sorted() {
            checks.always(SeatContentionScenario.Check.noSeatDoubleBooked, failure: holders[seat]!.count <= 1 ? nil
                : "at the end, seat \(seat) is reserved by \(holders[seat]!.joined(separator: " and "))")
        }
        if holders.isEmpty { checks.always(SeatContentionScenario.Check.noSeatDoubleBooked, failure: nil) }
    }

    // MARK: - Support

    /// `count` users signed up concurrently (set-up is not timed, but should not take long); on a
    /// real server, imported in batches (`KNBApp.importUsers`: the same documents).
    static func signUpPool(_ app: KNBApp, count: Int, retry: ClientRetry) async -> [KNBClient] {
        if app.backend.remote != nil {
            let accounts = (0..<count).map { (email: "u\($0)@knb.org", name: "User \($0)", token: KNBScenarioSupport.token("u\($0)@knb.org")) }
            _ = try? await retry { try await app.importUsers(accounts) }
            return accounts.map { app.client(email: $0.email, name: $0.name) }
        }
        return await withTaskGroup(of: (Int, KNBClient).self) { group in
            for index in 0..<count {
                group.addTask { (index, await KNBScenarioSupport.signUp(app, email: "u\(index)@knb.org", name: "User \(index)", retry: retry)) }
            }
            var clients: [(Int, KNBClient)] = []
            for await entry in group { clients.append(entry) }
            return clients.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}

// admin-broadcast's checks for its load profile, judged once the load settled on the inboxes as a
// function reads them (from the server in real mode).
extension LoadProfile {
    /// The checks admin-broadcast's profile judges.
    static let adminBroadcastChecks = [
        AdminBroadcastScenario.Check.announcementInEveryInbox, AdminBroadcastScenario.Check.noAnnouncementWhenOptedOut,
    ]

    /// Who wants announcements, and who must get none (the admin, members who turned them off).
    struct BroadcastLoadAudience: Sendable {
        var wanting: [String]
        var optedOut: [String]
    }

    /// Every announcement in the in-app notifications of every member who wants them, and none in
    /// the admin's or an opted-out member's.
    static func settleAnnouncements(_ app: KNBApp, audience: BroadcastLoadAudience, posted: LatestPosts, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        var inboxes: [String: Set<String>] = [:]
        let everyInbox = Query("notifications", allDescendants: true)
        for notification in (try? await app.backend.firestore.fetch(everyInbox)) ?? [] where notification["type"] == "ADMIN_POST" {
            let owner = notification.path.collection.split(separator: "/").dropFirst().first.map(String.init) ?? "?"
            inboxes[owner, default: []].insert(notification["data"]?.mapValue?["postId"]?.stringValue ?? "?")
        }
        for postId in posted.posts {
            let missing = audience.wanting.filter { inboxes[$0]?.contains(postId) != true }
            checks.always(AdminBroadcastScenario.Check.announcementInEveryInbox, failure: missing.isEmpty ? nil
                : "announcement \(postId) is missing from \(missing.count) inbox(es), first \(missing.prefix(3))")
        }
        for member in audience.optedOut {
            checks.always(AdminBroadcastScenario.Check.noAnnouncementWhenOptedOut, failure: (inboxes[member] ?? []).isEmpty ? nil
                : "\(member) turned announcements off but got \(inboxes[member]!.sorted())")
        }
    }
}

// calendar-sync's check for its load profile, judged once the load settled on the calendar as a
// function reads it (from the server in real mode).
extension LoadProfile {
    /// Every date booked in the app shown in the calendar as the app's booking, by its sponsor
    /// (the pool's member `u<n>@knb.org` is "User <n>"), whatever the website syncs did. The
    /// scheduler stops first: its next tick may be minutes away.
    static func settleCalendar(_ app: KNBApp, _ checks: LoadCheckLog) async {
        await app.backend.scheduler.stop()
        await app.backend.waitUntilIdle()
        let calendar = await app.backend.firestore.fetch("kiddushCalendar")
        for booking in await app.backend.firestore.fetch("kiddush_sponsorships") {
            let email = booking["sponsorEmail"]?.stringValue ?? "?"
            let sponsor = email.hasSuffix("@knb.org") && email.hasPrefix("u") ? "User \(email.dropFirst().prefix { $0 != "@" })" : "?"
            let entry = calendar.first { $0.id == booking.id }?.fields
            let ok = entry?["source"] == "app" && entry?["status"] == "sponsored" && entry?["sponsor"]?.stringValue == sponsor
            let shown = entry.map { "\($0["sponsor"]?.stringValue ?? "?") (\($0["status"]?.stringValue ?? "?"), source \($0["source"]?.stringValue ?? "?"))" } ?? "no entry"
            checks.always(CalendarSyncScenario.Check.calendarKeepsAppBookings, failure: ok ? nil : "\(booking.id) is booked in the app by \(sponsor), but the calendar shows \(shown)")
        }
    }
}
