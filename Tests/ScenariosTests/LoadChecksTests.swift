@testable import Harness
@testable import Scenarios
import Testing

/// Load runs judge the scenario's own checks: while the load runs (what users were told) and once
/// it settled (the backend's state as a function reads it). The careful design passes them; the
/// planted design each check is for fails them, with the check named.
@Suite struct LoadChecksTests {
    init() { BuiltInScenarios.register() }

    private func status(_ report: RunReport, _ check: String) -> CheckStatus? { report.checks.first { $0.name == check }?.status }

    @Test func seatContentionJudgesDoubleBookingWhileAndAfterTheLoad() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("seat-contention", .constantArrivalRate(rate: 50, duration: .seconds(10))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "no-seat-double-booked") == .passed)
        #expect((careful.checks.first { $0.name == "no-seat-double-booked" }?.observations ?? 0) > 20)
        #expect(status(careful, "seat-taken") == .reached)

        let planted = LoadRunner.runVirtual(VirtualLoadTests.request(
            "seat-contention", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: "seat-random-id"))
        #expect(!planted.passed)
        #expect(planted.failure?.kind == .invariant)
        #expect(planted.failure?.message.hasPrefix("no-seat-double-booked: user ") == true, "\(planted.failure?.message ?? "")")
        #expect(status(planted, "no-seat-double-booked") == .violated)
    }

    @Test func auctionRaceJudgesEveryHonorOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("auction-race", .constantArrivalRate(rate: 50, duration: .seconds(4))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in ["bids-strictly-increasing", "winner-is-highest-bidder", "no-bid-after-sold"] {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect((careful.checks.first { $0.name == "bids-strictly-increasing" }?.observations ?? 0) == 500)  // one per honor
    }

    @Test func likeStormJudgesItsCountersOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("like-storm", .constantArrivalRate(rate: 50, duration: .seconds(10))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "like-count-matches-likes") == .passed)
        #expect(status(careful, "reply-count-matches-replies") == .passed)
        for (variant, check) in [("like-arrayunion-increment", "like-count-matches-likes"), ("reply-count-trigger-increment", "reply-count-matches-replies")] {
            let planted = LoadRunner.runVirtual(VirtualLoadTests.request("like-storm", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: variant))
            #expect(planted.failure?.message.hasPrefix("\(check): ") == true, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func kiddushBookingJudgesOneBookingPerDate() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("kiddush-booking", .constantArrivalRate(rate: 50, duration: .seconds(4))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "one-booking-per-date") == .passed)
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request("kiddush-booking", .constantArrivalRate(rate: 50, duration: .seconds(4)), variant: "kiddush-random-id"))
        #expect(planted.failure?.message.hasPrefix("one-booking-per-date: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func stampCollectJudgesItsCountersOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("stamp-collect", .constantArrivalRate(rate: 50, duration: .seconds(6))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in ["collectors-consistent", "collectors-match-records", "like-count-not-negative", "like-count-matches-likes"] {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect((careful.checks.first { $0.name == "collectors-match-records" }?.observations ?? 0) == 10)  // one per stamp
        for (variant, check) in [("increment-collectors", "collectors-consistent"), ("blind-like-increment", "like-count-matches-likes")] {
            let planted = LoadRunner.runVirtual(VirtualLoadTests.request("stamp-collect", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: variant))
            #expect(planted.failure?.kind == .invariant && status(planted, check) == .violated, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func stampSocialJudgesPostsAndFollowsOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("stamp-social", .constantArrivalRate(rate: 50, duration: .seconds(6))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in LoadProfile.stampSocialChecks.map(\.name) {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect((careful.checks.first { $0.name == "follow-counts-match-records" }?.observations ?? 0) == 40)  // one per user
        for (variant, check) in [("post-delete-feed-only", "no-orphaned-comments-or-likes"), ("comment-count-increment", "comment-count-matches-comments")] {
            let planted = LoadRunner.runVirtual(VirtualLoadTests.request("stamp-social", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: variant))
            #expect(planted.failure?.kind == .invariant && status(planted, check) == .violated, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func nudgeStormJudgesTheCooldownOnceSettled() throws {
        let load = LoadExecutor.constantArrivalRate(rate: 5, duration: .seconds(90))  // past the 60 s cooldown
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("nudge-storm", load))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "one-nudge-per-cooldown") == .passed)
        for variant in ["nudge-cooldown-half", "client-tap-guard-only"] {
            let planted = LoadRunner.runVirtual(VirtualLoadTests.request("nudge-storm", load, variant: variant))
            #expect(planted.failure?.kind == .invariant && status(planted, "one-nudge-per-cooldown") == .violated, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func studioClaimJudgesWhatClaimantsWereTold() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("studio-claim", .constantArrivalRate(rate: 50, duration: .seconds(10))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in ["one-owner-told-per-studio", "claimed-has-owner", "claim-kept"] {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect((careful.checks.first { $0.name == "claimed-has-owner" }?.observations ?? 0) == 200)  // one per studio
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request(
            "studio-claim", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: "claim-check-then-write"))
        #expect(planted.failure?.message.hasPrefix("one-owner-told-per-studio: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func privacyAccessJudgesReadsAsTheyAnswerAndLikesOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("privacy-access", .constantArrivalRate(rate: 50, duration: .seconds(6))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        for check in LoadProfile.privacyAccessChecks.map(\.name) {
            #expect(status(careful, check) == .passed, "\(check)")
        }
        #expect((careful.checks.first { $0.name == "no-unauthorised-read" }?.observations ?? 0) > 20)  // refused private reads
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request(
            "privacy-access", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: "like-without-transaction"))
        #expect(planted.failure?.message.hasPrefix("like-count-matches-likes: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func adminBroadcastJudgesEveryInboxOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("admin-broadcast", .constantArrivalRate(rate: 50, duration: .seconds(4))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "announcement-in-every-inbox") == .passed)
        #expect((careful.checks.first { $0.name == "announcement-in-every-inbox" }?.observations ?? 0) >= 2)  // one per announcement
        #expect((careful.checks.first { $0.name == "no-announcement-when-opted-out" }?.observations ?? 0) == 101)  // the admin and 100 members
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request(
            "admin-broadcast", .constantArrivalRate(rate: 50, duration: .seconds(4)), variant: "broadcast-ignores-preference"))
        #expect(planted.failure?.message.hasPrefix("no-announcement-when-opted-out: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func contactDiscoveryJudgesEachDiscoveryAsItAnswers() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("contact-discovery", .constantArrivalRate(rate: 50, duration: .seconds(6))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "contacts-found") == .passed)
        #expect((careful.checks.first { $0.name == "contacts-found" }?.observations ?? 0) > 150)  // every discovery that answered
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request(
            "contact-discovery", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: "contacts-not-normalized"))
        #expect(planted.failure?.message.hasPrefix("contacts-found: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func whosFreeJudgesEveryBadgeAfterALastRefresh() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("whos-free", .constantArrivalRate(rate: 50, duration: .seconds(6))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "badge-matches-friends") == .passed && status(careful, "store-matches-server") == .passed)
        #expect((careful.checks.first { $0.name == "badge-matches-friends" }?.observations ?? 0) == 10 * 14)  // every viewer, every day
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request("whos-free", .constantArrivalRate(rate: 50, duration: .seconds(6)), variant: "heatmap-one-week"))
        #expect(planted.failure?.message.hasPrefix("badge-matches-friends: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func heartbeatTimelineJudgesEveryAcceptedCheckIn() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("heartbeat-timeline", .constantArrivalRate(rate: 50, duration: .seconds(10))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "rate-limit-respected") == .passed)
        #expect((careful.checks.first { $0.name == "rate-limit-respected" }?.observations ?? 0) >= 200)  // each user's first check-in at least
        for variant in ["rate-limit-in-memory", "read-then-write-rate-limit"] {
            let planted = LoadRunner.runVirtual(VirtualLoadTests.request("heartbeat-timeline", .constantArrivalRate(rate: 50, duration: .seconds(10)), variant: variant))
            #expect(planted.failure?.message.hasPrefix("rate-limit-respected: ") == true, "\(variant): \(planted.failure?.message ?? "passed")")
        }
    }

    @Test func offlineSyncJudgesTheServerAndEveryCacheOnceSynced() throws {
        let load = LoadExecutor.constantArrivalRate(rate: 5, duration: .seconds(60))  // edits of a day far enough apart to order
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("offline-sync", load))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "newest-edit-wins") == .passed && status(careful, "caches-match-server") == .passed)
        #expect((careful.checks.first { $0.name == "caches-match-server" }?.observations ?? 0) == 40 * 3)  // every device, every day
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request("offline-sync", load, variant: "last-arrival-wins"))
        #expect(planted.failure?.message.hasPrefix("newest-edit-wins: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func calendarSyncJudgesEveryAppBookingOnceTheSchedulerStopped() throws {
        let load = LoadExecutor.constantArrivalRate(rate: 20, duration: .seconds(10))
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("calendar-sync", load))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")  // the settle stops the 30-minute ticks instead of waiting for them
        #expect(status(careful, "calendar-keeps-app-bookings") == .passed)
        #expect((careful.checks.first { $0.name == "calendar-keeps-app-bookings" }?.observations ?? 0) > 0)
        let planted = LoadRunner.runVirtual(VirtualLoadTests.request("calendar-sync", load, seed: 1, variant: "sync-reads-app-entries-first"))
        #expect(planted.failure?.message.hasPrefix("calendar-keeps-app-bookings: ") == true, "\(planted.failure?.message ?? "passed")")
    }

    @Test func friendHandshakeJudgesEveryPairOnceSettled() throws {
        let careful = LoadRunner.runVirtual(VirtualLoadTests.request("friend-handshake", .constantArrivalRate(rate: 50, duration: .seconds(6))))
        #expect(careful.passed, "\(careful.failure?.message ?? "")")
        #expect(status(careful, "friendship-bidirectional") == .passed)
        #expect((careful.checks.first { $0.name == "friendship-bidirectional" }?.observations ?? 0) == 60 * 59 / 2)  // every pair of the pool
    }
}
