@testable import Harness
@testable import Scenarios
import Testing

/// Load runs judge the scenario's own checks: while the load runs (what users were told) and once
/// it settled (the backend's state as a function reads it). The careful design passes them; the
/// planted design each check is for fails them, with the check named.
@Suite struct LoadChecksTests {
    init() { BuiltInScenarios.register() }

    private func status(_ report: RunReport, _ check: String) -> CheckStatus? { report.checks.first { $0.name == check }?.status }

    private func observations(_ report: RunReport, _ check: String) -> Int { report.checks.first { $0.name == check }?.observations ?? 0 }

    /// A virtual load run of `scenario`'s profile.
    private func run(_ scenario: String, _ load: LoadExecutor, seed: UInt64 = 7, variant: String? = nil) -> RunReport {
        LoadRunner.runVirtual(VirtualLoadTests.request(scenario, load, seed: seed, variant: variant))
    }

    /// `variant` of `scenario` under `load` fails the run on an invariant, with `check` violated.
    private func expectCaught(_ scenario: String, _ load: LoadExecutor, variant: String, violating check: String) {
        let planted = run(scenario, load, variant: variant)
        #expect(planted.failure?.kind == .invariant && status(planted, check) == .violated, "\(variant): \(planted.failure?.message ?? "passed")")
    }

    @Test func seatContentionJudgesDoubleBookingWhileAndAfterTheLoad() throws {
        let careful = run("seat-contention", .constantArrivalRate(rate: 50, duration: .seconds(10)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "no-seat-double-booked") == .passed)
        #expect(observations(careful, "no-seat-double-booked") > 20)
        #expect(status(careful, "seat-taken") == .reached)

        let planted = run(
            "seat-contention", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: "seat-random-id")
        #expect(!planted.passed)
        #expect(planted.failure?.kind == .invariant)
        #expect(planted.failure?.message.hasPrefix("no-seat-double-booked: user ") == true, "\(planted.failure?.message ?? "")")
        #expect(status(planted, "no-seat-double-booked") == .violated)
    }

    @Test func auctionRaceJudgesEveryHonorOnceSettled() throws {
        let careful = run("auction-race", .constantArrivalRate(rate: 50, duration: .seconds(4)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in ["bids-strictly-increasing", "winner-is-highest-bidder", "no-bid-after-sold"] {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect(observations(careful, "bids-strictly-increasing") == 500)  // one per honor
    }

    @Test func likeStormJudgesItsCountersOnceSettled() throws {
        let careful = run("like-storm", .constantArrivalRate(rate: 50, duration: .seconds(10)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "like-count-matches-likes") == .passed)
        #expect(status(careful, "reply-count-matches-replies") == .passed)
        for (variant, check) in [("like-arrayunion-increment", "like-count-matches-likes"), ("reply-count-trigger-increment", "reply-count-matches-replies")] {
            let planted = run("like-storm", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: variant)
            #expect(planted.failure?.message.hasPrefix("\(check): ") == true, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func kiddushBookingJudgesOneBookingPerDate() throws {
        let careful = run("kiddush-booking", .constantArrivalRate(rate: 50, duration: .seconds(4)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "one-booking-per-date") == .passed)
        let planted = run("kiddush-booking", .constantArrivalRate(rate: 50, duration: .seconds(4)), variant: "kiddush-random-id")
        #expect(planted.failure?.message.hasPrefix("one-booking-per-date: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func stampCollectJudgesItsCountersOnceSettled() throws {
        let careful = run("stamp-collect", .constantArrivalRate(rate: 50, duration: .seconds(6)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in ["collectors-consistent", "collectors-match-records", "like-count-not-negative", "like-count-matches-likes"] {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect(observations(careful, "collectors-match-records") == 10)  // one per stamp
        for (variant, check) in [("increment-collectors", "collectors-consistent"), ("blind-like-increment", "like-count-matches-likes")] {
            expectCaught("stamp-collect", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: variant, violating: check)
        }
    }

    @Test func stampSocialJudgesPostsAndFollowsOnceSettled() throws {
        let careful = run("stamp-social", .constantArrivalRate(rate: 50, duration: .seconds(6)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in LoadProfile.stampSocialChecks.map(\.name) {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect(observations(careful, "follow-counts-match-records") == 40)  // one per user
        for (variant, check) in [("post-delete-feed-only", "no-orphaned-comments-or-likes"), ("comment-count-increment", "comment-count-matches-comments")] {
            expectCaught("stamp-social", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: variant, violating: check)
        }
    }

    @Test func nudgeStormJudgesTheCooldownOnceSettled() throws {
        let load = LoadExecutor.constantArrivalRate(rate: 5, duration: .seconds(90))  // past the 60 s cooldown
        let careful = run("nudge-storm", load)
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "one-nudge-per-cooldown") == .passed)
        for variant in ["nudge-cooldown-half", "client-tap-guard-only"] {
            expectCaught("nudge-storm", load, variant: variant, violating: "one-nudge-per-cooldown")
        }
    }

    @Test func studioClaimJudgesWhatClaimantsWereTold() throws {
        let careful = run("studio-claim", .constantArrivalRate(rate: 50, duration: .seconds(10)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in ["one-owner-told-per-studio", "claimed-has-owner", "claim-kept"] {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect(observations(careful, "claimed-has-owner") == 200)  // one per studio
        let planted = run(
            "studio-claim", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: "claim-check-then-write")
        #expect(planted.failure?.message.hasPrefix("one-owner-told-per-studio: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func privacyAccessJudgesReadsAsTheyAnswerAndLikesOnceSettled() throws {
        let careful = run("privacy-access", .constantArrivalRate(rate: 50, duration: .seconds(6)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in LoadProfile.privacyAccessChecks.map(\.name) {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect(observations(careful, "no-unauthorised-read") > 20)  // refused private reads
        let planted = run(
            "privacy-access", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: "like-without-transaction")
        #expect(planted.failure?.message.hasPrefix("like-count-matches-likes: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func adminBroadcastJudgesEveryInboxOnceSettled() throws {
        let careful = run("admin-broadcast", .constantArrivalRate(rate: 50, duration: .seconds(4)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "announcement-in-every-inbox") == .passed)
        #expect(observations(careful, "announcement-in-every-inbox") >= 2)  // one per announcement
        #expect(observations(careful, "no-announcement-when-opted-out") == 101)  // the admin and 100 members
        let planted = run(
            "admin-broadcast", .constantArrivalRate(rate: 50, duration: .seconds(4)), variant: "broadcast-ignores-preference")
        #expect(planted.failure?.message.hasPrefix("no-announcement-when-opted-out: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func contactDiscoveryJudgesEachDiscoveryAsItAnswers() throws {
        let careful = run("contact-discovery", .constantArrivalRate(rate: 50, duration: .seconds(6)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "contacts-found") == .passed)
        #expect(observations(careful, "contacts-found") > 150)  // every discovery that answered
        let planted = run(
            "contact-discovery", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: "contacts-not-normalized")
        #expect(planted.failure?.message.hasPrefix("contacts-found: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func whosFreeJudgesEveryBadgeAfterALastRefresh() throws {
        let careful = run("whos-free", .constantArrivalRate(rate: 50, duration: .seconds(6)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "badge-matches-friends") == .passed && status(careful, "store-matches-server") == .passed)
        #expect(observations(careful, "badge-matches-friends") == 10 * 14)  // every viewer, every day
        let planted = run("whos-free", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: "heatmap-one-week")
        #expect(planted.failure?.message.hasPrefix("badge-matches-friends: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func heartbeatTimelineJudgesEveryAcceptedCheckIn() throws {
        let careful = run("heartbeat-timeline", .constantArrivalRate(rate: 50, duration: .seconds(10)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "rate-limit-respected") == .passed)
        #expect(observations(careful, "rate-limit-respected") >= 200)  // each user's first check-in at least
        for variant in ["rate-limit-in-memory", "read-then-write-rate-limit"] {
            let planted = run("heartbeat-timeline", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: variant)
            #expect(planted.failure?.message.hasPrefix("rate-limit-respected: ") == true, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func offlineSyncJudgesTheServerAndEveryCacheOnceSynced() throws {
        let load = LoadExecutor.constantArrivalRate(rate: 5, duration: .seconds(60))  // edits of a day far enough apart to order
        let careful = run("offline-sync", load)
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "newest-edit-wins") == .passed && status(careful, "caches-match-server") == .passed)
        #expect(observations(careful, "caches-match-server") == 40 * 3)  // every device, every day
        let planted = run("offline-sync", load, variant: "last-arrival-wins")
        #expect(planted.failure?.message.hasPrefix("newest-edit-wins: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func calendarSyncJudgesEveryAppBookingOnceTheSchedulerStopped() throws {
        let load = LoadExecutor.constantArrivalRate(rate: 20, duration: .seconds(10))
        let careful = run("calendar-sync", load)
        #expect(careful.passed, "\(careful.failure?.message ?? "")")  // the settle stops the 30-minute ticks instead of waiting for them
        #expect(status(careful, "calendar-keeps-app-bookings") == .passed)
        #expect(observations(careful, "calendar-keeps-app-bookings") > 0)
        let planted = run("calendar-sync", load, seed: 1, variant: "sync-reads-app-entries-first")
        #expect(planted.failure?.message.hasPrefix("calendar-keeps-app-bookings: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func friendHandshakeJudgesEveryPairOnceSettled() throws {
        let careful = run("friend-handshake", .constantArrivalRate(rate: 50, duration: .seconds(6)))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "friendship-bidirectional") == .passed)
        #expect(observations(careful, "friendship-bidirectional") == 60 * 59 / 2)  // every pair of the pool
    }
}
