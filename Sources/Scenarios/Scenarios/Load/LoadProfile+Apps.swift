import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

// The load profiles of the scenarios beyond the three KNB races: each signs up a pool of users
// on the runner's backend through the same app client calls as its scenario, and each iteration
// is one user action of that scenario, with the scenarios' retry policy on the run's clock.
extension LoadProfile {
    /// `bookKiddush` on one of 21 Shabbat dates by a pool of users (a taken date is a business outcome).
    static let kiddushBooking = LoadProfile(
        scenario: "kiddush-booking", summary: "bookKiddush on one of 21 dates by a pool of 40 users (a taken date is not a failure)",
        operations: ["bookKiddush"], users: 40, faults: KNBScenarioSupport.faults(duplicatePercent: 5), runsOnRealServer: true
    ) { setup in
        let app = KNBScenarioSupport.makeApp(setup)
        let retry = ClientRetry.on(setup.env.clock)
        let users = await signUpPool(app, count: 40, retry: retry)
        let checks = LoadCheckLog([KiddushBookingScenario.Check.oneBookingPerDate])
        return Workload(checks: checks, settle: { await settleBookings(app, checks) }) { index, user, recorder in
            var failed = false
            do {
                _ = try await retry {
                    try await users[user % users.count].bookKiddush(
                        date: KiddushBookingScenario.date(index % 21), occasion: "Simcha", tierName: "Gold", tierAmount: 500)
                }
            } catch KNBError.dateAlreadyBooked {
                failed = false
            } catch {
                failed = true
            }
            recorder.record("bookKiddush", failed: failed)
        }
    }

    /// Once the load settled: kiddush-booking's one-booking-per-date over the sponsorships, as a
    /// function reads them (from the server in real mode).
    private static func settleBookings(_ app: KNBApp, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()  // triggers and their retries (bounded in real mode)
        var byDate: [String: Int] = [:]
        for booking in await app.backend.firestore.fetch("kiddush_sponsorships") { byDate[booking["date"]?.stringValue ?? "?", default: 0] += 1 }
        for date in byDate.keys.sorted() {
            checks.always(KiddushBookingScenario.Check.oneBookingPerDate, failure: byDate[date]! <= 1 ? nil : "\(byDate[date]!) sponsorships of \(date)")
        }
    }

    /// Friend requests, answers and removals between neighbours in a pool of UFree users.
    static let friendHandshake = LoadProfile(
        scenario: "friend-handshake", summary: "sendFriendRequest, respondToFriendRequest (accept), removeFriend between pool neighbours (60 users)",
        operations: ["sendFriendRequest", "respondToFriendRequest", "removeFriend"], users: 60, faults: .default, runsOnRealServer: true
    ) { setup in
        let (app, users, retry) = await ufreePool(setup, count: 60)
        let checks = LoadCheckLog(friendHandshakeChecks)
        return Workload(checks: checks, settle: { await settleFriendships(app, users: users.map(\.uid), checks) }) { index, user, recorder in
            let me = users[user % users.count], other = users[(user + 1 + index % 5) % users.count]
            switch index % 3 {
            case 0:
                let failed = await LoadProfile.failed(retry) { try await me.client.sendFriendRequest(to: other.uid) }
                recorder.record("sendFriendRequest", failed: failed)
            case 1:
                let failed = await LoadProfile.failed(retry) { try await me.client.respondToFriendRequest(from: other.uid, accept: true) }
                recorder.record("respondToFriendRequest", failed: failed)
            default:
                let failed = await LoadProfile.failed(retry) { try await me.client.removeFriend(other.uid) }
                recorder.record("removeFriend", failed: failed)
            }
        }
    }

    /// Nudges between friends (a ring of friendships) in a pool of UFree users.
    static let nudgeStorm = LoadProfile(
        scenario: "nudge-storm", summary: "nudge a friend (ring of 40 friendships; the cooldown refusal is not a failure)",
        operations: ["nudge"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let (app, users, retry) = await ufreePool(setup, count: 40)
        for (index, first) in users.enumerated() {
            let second = users[(index + 1) % users.count]
            _ = try? await retry { try await first.client.sendFriendRequest(to: second.uid) }
            _ = try? await retry { try await second.client.respondToFriendRequest(from: first.uid, accept: true) }
        }
        let checks = LoadCheckLog([NudgeStormScenario.Check.oneNudgePerCooldown])
        return Workload(checks: checks, settle: { await settleNudges(app, users: users.map(\.uid), checks) }) { index, user, recorder in
            let me = users[user % users.count]
            let friend = users[(user + (index % 2 == 0 ? 1 : users.count - 1)) % users.count]
            var failed = false
            do {
                try await retry { try await me.client.nudge(friend.uid) }
            } catch UFreeError.backend {
                failed = true
            } catch {
                failed = false  // a business refusal (cooldown, not friends): not a failure
            }
            recorder.record("nudge", failed: failed)
        }
    }

    /// Stamp collection and likes on feed posts by a pool of Stampbook users: at set-up each user
    /// collects one stamp (so each has a post); then collects of any stamp, and likes and unlikes
    /// of the next user's post.
    static let stampCollect = LoadProfile(
        scenario: "stamp-collect", summary: "collectStamp (50 %) on one of 10 stamps, setLike (50 %) on the next user's post; 40 users",
        operations: ["collectStamp", "setLike"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let app = StampbookApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, StampbookVariant.self))
        let retry = ClientRetry.on(setup.env.clock)
        let stampIds = (0..<10).map { "s\($0)" }
        for id in stampIds { _ = try? await retry { try await app.addStamp(stampId: id, name: "Stamp \(id)") } }
        let clients = (0..<40).map { app.client(uid: "u\($0)") }
        for (index, client) in clients.enumerated() { _ = try? await retry { try await client.collectStamp(stampIds[index % stampIds.count]) } }
        let checks = LoadCheckLog(stampCollectChecks)
        return Workload(checks: checks, settle: { await settleStamps(app, users: (0..<40).map { "u\($0)" }, checks) }) { index, user, recorder in
            let client = clients[user % clients.count]
            if index % 2 == 0 {
                let failed = await LoadProfile.failed(retry) { try await client.collectStamp(stampIds[index / 2 % stampIds.count]) }
                recorder.record("collectStamp", failed: failed)
            } else {
                let next = (user + 1) % clients.count
                let postId = "u\(next)_\(stampIds[next % stampIds.count])"
                let failed = await LoadProfile.failed(retry) { try await client.setLike(postId: postId, liked: index % 4 == 1) }
                recorder.record("setLike", failed: failed)
            }
        }
    }

    /// Stampbook's social side by a pool of users: every fourth operation creates a post (with its
    /// "Only You" copy), the next comments on it, the next follows or unfollows, the next deletes it.
    static let stampSocial = LoadProfile(
        scenario: "stamp-social", summary: "createPost, addComment on it, setFollowing, deletePost of it (25 % each, in turn); 40 users",
        operations: ["createPost", "addComment", "setFollowing", "deletePost"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let app = StampbookApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, StampbookVariant.self))
        let retry = ClientRetry.on(setup.env.clock)
        let clients = (0..<40).map { app.client(uid: "u\($0)") }
        let checks = LoadCheckLog(stampSocialChecks), created = StampSocialScenario.PostBoard()
        return Workload(checks: checks, settle: { await settleSocial(app, users: (0..<40).map { "u\($0)" }, created: created, checks) }) { index, user, recorder in
            let round = index / 4
            let author = clients[round % clients.count]
            let postId = "p\(round)"
            switch index % 4 {
            case 0:
                created.add(postId)
                recorder.record("createPost", failed: await LoadProfile.failed(retry) { try await author.createPost(postId: postId, stampId: "s0", caption: "") })
            case 1:
                let commenter = clients[(round + 1 + user) % clients.count]
                recorder.record("addComment", failed: await LoadProfile.failed(retry) {
                    try await commenter.addComment(postId: postId, commentId: "c\(index)", text: "Nice!")
                })
            case 2:
                let target = "u\((round + 1) % clients.count)"
                recorder.record("setFollowing", failed: await LoadProfile.failed(retry) { try await author.setFollowing(target, following: round / clients.count % 2 == 0) })
            default:
                recorder.record("deletePost", failed: await LoadProfile.failed(retry) { try await author.deletePost(postId: postId) })
            }
        }
    }

    /// Inspired studios under contention: 200 shadow studios seeded and half of them claimed by
    /// their owners at set-up; each iteration claims a studio (a claimed one is refused, not a
    /// failure; the other half are raced for, two claimants a studio) or has an owner edit their
    /// studio's about.
    static let studioClaim = LoadProfile(
        scenario: "studio-claim", summary: "claimStudio on one of 200 seeded studios, half already claimed (50 %), updateStudioAbout by an owner (50 %); 40 users",
        operations: ["claimStudio", "updateStudioAbout"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let (app, clients, retry) = LoadProfile.inspiredPool(setup, count: 40)
        let places = InspiredPlaces(count: 200, origin: setup.env.clock.now, openingSpan: .zero, seed: 1)
        app.deployStudios(places: places, seedEvery: .seconds(1_800))
        try? await setup.backend.functions.runScheduled("seedShadowStudios", at: setup.env.clock.now)
        let owned = stride(from: 0, to: places.count, by: 2).map { InspiredPlaces.studioId($0) }
        let checks = LoadCheckLog(studioClaimChecks), book = StudioClaimScenario.ClaimBook()
        for (index, studioId) in owned.enumerated() {
            let owner = clients[index % clients.count]
            if (try? await retry { try await owner.claimStudio(studioId, code: places.claimCode(studioId)) }) != nil {
                told(studioId, owner: "u\(index % clients.count)", book: book, checks)
            }
        }
        return Workload(checks: checks, settle: { await settleStudios(app, book: book, checks) }) { index, user, recorder in
            if index % 2 == 0 {
                let studioId = InspiredPlaces.studioId(index / 4 % places.count)
                let claimant = (index / 2 + user) % clients.count
                var failed = false
                do {
                    try await retry { try await clients[claimant].claimStudio(studioId, code: places.claimCode(studioId)) }
                    told(studioId, owner: "u\(claimant)", book: book, checks)
                } catch {
                    failed = BackendError.inside(error) != nil  // a refusal (already claimed) is the design
                }
                recorder.record("claimStudio", failed: failed)
            } else {
                let slot = index / 2 % owned.count
                let owner = clients[slot % clients.count]
                recorder.record("updateStudioAbout", failed: await LoadProfile.failed(retry) { try await owner.updateStudioAbout(owned[slot], about: "Edit \(index)") })
            }
        }
    }

    /// Access changes under reads by a pool of Inspired users: profile reads (50 %, a refusal is
    /// not a failure), privacy toggles (25 %), leaving or re-joining a community (25 %).
    static let privacyRevocation = LoadProfile(
        scenario: "privacy-revocation", summary: "profile read (50 %), updatePrivacy public/private (25 %), leaveCommunity/joinCommunity (25 %); 40 users",
        operations: ["profile", "updatePrivacy", "community"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let (app, clients, retry) = LoadProfile.inspiredPool(setup, count: 40)
        for (index, client) in clients.enumerated() {
            _ = try? await retry { try await client.createProfile(displayName: "User \(index)", joinedCommunities: ["c\(index % 4)", "c\((index + 1) % 4)"]) }
        }
        return Workload { index, user, recorder in
            let me = clients[(index + user) % clients.count]
            switch index % 4 {
            case 0, 2:
                let target = "u\((index / 4 + 7 * user + 1) % clients.count)"
                recorder.record("profile", failed: await LoadProfile.failed(retry) { try await me.profile(of: target) })
            case 1:
                let settings = index / 4 % 2 == 0
                    ? InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public) : .defaults
                recorder.record("updatePrivacy", failed: await LoadProfile.failed(retry) { try await me.updatePrivacy(settings) })
            default:
                let community = "c\(index / 4 % 4)"
                recorder.record("community", failed: await LoadProfile.failed(retry) {
                    if index / 8 % 2 == 0 { try await me.leaveCommunity(community) } else { try await me.joinCommunity(community) }
                })
            }
        }
    }

    /// Profile reads (public or private) and post likes by a pool of Inspired users.
    static let privacyAccess = LoadProfile(
        scenario: "privacy-access", summary: "profile read (50 %, a private profile's refusal is not a failure), likePost/unlikePost (50 %); 40 users",
        operations: ["profile", "likePost", "unlikePost"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let (app, clients, retry) = LoadProfile.inspiredPool(setup, count: 40)
        for (index, client) in clients.enumerated() {
            _ = try? await retry { try await client.createProfile(displayName: "User \(index)", joinedCommunities: ["c\(index % 3)"]) }
            if index % 2 == 1 {  // half the profiles public, the rest keep the private defaults
                let settings = InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public)
                _ = try? await retry { try await client.updatePrivacy(settings) }
            }
            _ = try? await retry { try await client.createPost(postId: "p\(index)", content: "Post \(index)", source: (type: "studio", name: "Studio")) }
        }
        let checks = LoadCheckLog(privacyAccessChecks)
        return Workload(checks: checks, settle: { await settleProfiles(app, checks) }) { index, user, recorder in
            let me = clients[user % clients.count]
            let target = (user + 1 + index % 7) % clients.count
            switch index % 4 {
            case 0, 2:
                // Public: the odd half; a shared community: the same index modulo 3.
                let allowed = target % 2 == 1 || target % 3 == user % clients.count % 3
                var failed = false
                do {
                    _ = try await retry { try await me.profile(of: "u\(target)") }
                    if !allowed { checks.always(PrivacyAccessScenario.Check.noUnauthorisedRead, failure: "u\(user % clients.count) read private u\(target)") }
                } catch InspiredError.backend {
                    failed = true
                } catch {
                    // A private profile's refusal is the design, not a failure.
                    if case InspiredError.profileNotVisible = error, !allowed { checks.always(PrivacyAccessScenario.Check.noUnauthorisedRead, failure: nil) }
                }
                recorder.record("profile", failed: failed)
            case 1:
                let failed = await LoadProfile.failed(retry) { try await me.likePost("p\(target)") }
                recorder.record("likePost", failed: failed)
            default:
                let failed = await LoadProfile.failed(retry) { try await me.unlikePost("p\(target)") }
                recorder.record("unlikePost", failed: failed)
            }
        }
    }

    /// SafeNSound heartbeats (check-ins) from a pool of registered users, on the Firestore store.
    static let heartbeatTimeline = LoadProfile(
        scenario: "heartbeat-timeline", summary: "recordHeartbeat (a check-in, 10 % double taps) by one of 200 registered users, on the Firestore-backed store",
        operations: ["recordHeartbeat"], users: 200, faults: .default, runsOnRealServer: true
    ) { setup in
        let variant = ScenarioSupport.variant(named: setup.variant, SafeNSoundVariant.self)
        SafeNSoundApp.deployIndexes(on: setup.backend, variant: variant)
        let app = SafeNSoundApp(
            environment: setup.env, configuration: SafeNSoundConfiguration(variant: variant),
            messenger: CountingMessenger(), store: SafeNSoundFirestoreStore(firestore: setup.backend.firestore))
        let now = setup.env.clock.now
        for index in 0..<200 {
            _ = try? await app.registerUser(SafeNSoundUser(
                userId: "u\(index)", name: "User \(index)", fcmToken: "fcm\(index)", emergencyContactEmails: ["c\(index)@ex.io"],
                checkInThresholdHours: [24, 48, 72][index % 3], lastHeartbeat: now, timeZoneIdentifier: "UTC"))
        }
        let checks = LoadCheckLog([HeartbeatTimelineScenario.Check.rateLimitRespected]), accepted = AcceptedHeartbeats()
        let spacing = SafeNSoundConfiguration(variant: variant).heartbeatMinimumSpacing
        @Sendable func checkIn(_ userId: String) async -> Bool {
            do {
                let response = try await app.recordHeartbeat(
                    authenticatedUserId: userId, request: SafeNSoundHeartbeatRequest(userId: userId, timeZoneIdentifier: "UTC", deviceModel: "load"))
                judgeHeartbeat(response, of: userId, accepted: accepted, spacing: spacing, checks)
                return false
            } catch SafeNSoundError.rateLimited {
                return false  // too soon after the last check-in: the design's refusal, not a failure
            } catch {
                return true
            }
        }
        return Workload(checks: checks) { index, user, recorder in
            let userId = "u\(user % 200)"
            if LoadDraw(index).below(10, salt: 1) == 0 {  // a double tap: two requests at once
                async let first = checkIn(userId)
                let second = await checkIn(userId)
                recorder.record("recordHeartbeat", failed: await first)
                recorder.record("recordHeartbeat", failed: second)
            } else {
                recorder.record("recordHeartbeat", failed: await checkIn(userId))
            }
        }
    }

    /// Runs `body` under `retry`; true when it failed for a backend reason (after the retries),
    /// false when it succeeded or the app refused it for a business reason (not a friend, already
    /// collected, not liked): those are the design's answers, not failures of the system.
    static func failed<T>(_ retry: ClientRetry, _ body: () async throws -> T) async -> Bool {
        do {
            _ = try await retry(body)
            return false
        } catch {
            return BackendError.inside(error) != nil
        }
    }

    /// The Inspired app on the runner's backend with `count` devices `u0`, `u1`, … (no profiles yet).
    static func inspiredPool(_ setup: Setup, count: Int) -> (InspiredApp, [InspiredClient], ClientRetry) {
        let app = InspiredApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, InspiredVariant.self))
        return (app, (0..<count).map { app.client(uid: "u\($0)") }, ClientRetry.on(setup.env.clock))
    }

    /// The UFree app on the runner's backend with `count` signed-up users (the scenarios' sign-up).
    static func ufreePool(_ setup: Setup, count: Int) async -> (UFreeApp, [UFreeScenarioSupport.User], ClientRetry) {
        let app = UFreeApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, UFreeVariant.self))
        let retry = ClientRetry.on(setup.env.clock)
        return (app, await UFreeScenarioSupport.signUp(app, count: count, retry: retry), retry)
    }
}
