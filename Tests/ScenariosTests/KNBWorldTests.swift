import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// like-storm and auction-race in drawn worlds that failed a release world-swarm sweep (seeds
/// 1..<2000) before their fixes: set-up that outlasts an outage, checks that judge what the user
/// was told, a buyer who changes no name during their Buy Now.
@Suite struct KNBWorldTests {
    init() { BuiltInScenarios.register() }

    /// One run of `scenario` at `seed` with every parameter given and the world's faults and outages.
    static func run(
        _ scenario: String, seed: UInt64, strategy: SchedulingStrategy, parameters: [String: Int], faults: [String: Double],
        outages: [OutageDraw]
    ) throws -> RunReport {
        var request = RunRequest(scenario: scenario, seed: seed, strategy: strategy, parameters: parameters)
        request.world = World(faults: faults, outages: outages)
        return try ScenarioRunner.run(request).report
    }

    /// Observations of `check` in `report` (0 when it was never evaluated).
    static func observations(_ check: String, _ report: RunReport) -> Int {
        report.checks.first { $0.name == check }?.observations ?? 0
    }

    /// Timeline entries of `report` containing `text`.
    static func entries(_ text: String, _ report: RunReport) -> [String] {
        report.timeline.map(\.event).filter { $0.contains(text) }
    }

    /// Seed 2: a client-network outage (severity 1) at the start refused the author's posts, and
    /// the users' loop drew a post from none (a crash). The set-up now waits the outage out.
    @Test func likeStormPostsOutlastAnOutageAtTheStart() throws {
        let report = try Self.run(
            "like-storm", seed: 2, strategy: .portfolio,
            parameters: ["actionsPerUser": 2, "doubleTapPercent": 25, "duplicatePercent": 10, "durationSeconds": 60, "postDeletes": 3, "posts": 19,
                         "reorderPercent": 0, "replyPercent": 70, "staleUnlikePercent": 20, "users": 1],
            faults: ["email-rate-limit": 0.3, "email-timeout": 0.0646, "fcm-token-failure": 0.2, "latency-tails": 0.3, "network-timeout": 0.0002,
                     "schedule-duplicate": 0.1426, "schedule-overlap": 0, "storage-upload-failure": 0.1941, "trigger-reorder": 0.6],
            outages: [
                OutageDraw(service: "client-network", startsPerHour: 6, shortestSeconds: 237, longestSeconds: 1534, severity: 1, startsDown: true),
                OutageDraw(service: "sendgrid", startsPerHour: 2, shortestSeconds: 254, longestSeconds: 5486, severity: 0.5, startsDown: false),
                OutageDraw(service: "fcm", startsPerHour: 2.26, shortestSeconds: 100, longestSeconds: 1360, severity: 0.22, startsDown: false),
            ])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(Self.entries("posted", report).isEmpty, "the author posted fewer posts than asked: \(Self.entries("posted", report))")
        #expect(Self.observations("no-orphan-reply", report) + Self.observations("like-count-matches-likes", report) > 0)
    }

    /// Seed 30: the author's delete failed (UNAVAILABLE during an outage) and the post stands;
    /// no-orphan-reply counted it deleted because the delete had been sent.
    @Test func likeStormDeleteToldFailedLeavesItsReplies() throws {
        let report = try Self.run(
            "like-storm", seed: 30, strategy: .random,
            parameters: ["actionsPerUser": 8, "doubleTapPercent": 25, "duplicatePercent": 10, "durationSeconds": 30, "postDeletes": 1, "posts": 2,
                         "reorderPercent": 15, "replyPercent": 78, "staleUnlikePercent": 20, "users": 8],
            faults: ["contention-abort": 0.4811, "email-rate-limit": 0.2331, "fcm-token-failure": 0, "latency-tails": 0, "network-failure": 0,
                     "network-timeout": 0, "schedule-overlap": 1, "trigger-duplicate": 0.04],
            outages: [
                OutageDraw(service: "client-network", startsPerHour: 2, shortestSeconds: 110, longestSeconds: 3350, severity: 0.72, startsDown: true),
                OutageDraw(service: "sendgrid", startsPerHour: 2, shortestSeconds: 31, longestSeconds: 3641, severity: 0.5, startsDown: true),
                OutageDraw(service: "storage", startsPerHour: 0.5, shortestSeconds: 48, longestSeconds: 928, severity: 1, startsDown: false),
            ])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(!Self.entries("delete failed", report).isEmpty, "the world no longer refuses the delete")
        #expect(Self.observations("no-orphan-reply", report) > 0)
    }

    /// Seed 44: network failures at 20 % used up the author's sign-in transaction (ABORTED), so
    /// the author had no account and no like was notified. The sign-in now keeps trying.
    @Test func likeStormAuthorSignsInThroughNetworkFailures() throws {
        let report = try Self.run(
            "like-storm", seed: 44, strategy: .nonpreemptive,
            parameters: ["actionsPerUser": 6, "doubleTapPercent": 25, "duplicatePercent": 10, "durationSeconds": 30, "postDeletes": 1, "posts": 3,
                         "reorderPercent": 30, "replyPercent": 12, "staleUnlikePercent": 75, "users": 8],
            faults: ["contention-abort": 0.6, "email-rate-limit": 0.1727, "email-timeout": 0.1, "latency-tails": 0.16, "network-failure": 0.2,
                     "network-timeout": 0, "schedule-duplicate": 0, "schedule-overlap": 0, "storage-upload-failure": 0.1011, "trigger-duplicate": 0,
                     "trigger-reorder": 0.6],
            outages: [OutageDraw(service: "sendgrid", startsPerHour: 6, shortestSeconds: 97, longestSeconds: 3892, severity: 0.5, startsDown: true)])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(Self.observations("every-like-notified", report) > 0)
    }

    /// 54 sniping bots in a 1 s window with renames rewriting the honor: a snipe can end ABORTED
    /// after the careful app's four rounds. Given up on after the app's patience and absent from the
    /// honor (the app looked), it is a failure the user was told of, not a lost bid. Rare (one seed
    /// in twenty of this world), so seeds 1–40 are run until one shows it; every one passes.
    @Test(.tags(.slow)) func auctionRaceSnipeGivenUpAfterPatienceIsNotLost() throws {
        var givenUp = false
        for seed in UInt64(1)...40 where !givenUp {
            let report = try Self.run(
                "auction-race", seed: seed, strategy: .random,
                parameters: ["bidders": 54, "bidsPerBidder": 3, "burstPercent": 80, "buyNow": 0, "buyNowAtPercent": 1, "doubleTapPercent": 27,
                             "duplicatePercent": 5, "durationSeconds": 60, "honors": 1, "raiseOwnPercent": 0, "renamePercent": 99, "renamesPerRenamer": 4,
                             "snipePercent": 16, "sniperPercent": 100, "sniperWindowMilliseconds": 1001, "snipesPerSniper": 3],
                faults: ["admin-call-failure": 0, "cold-start": 0, "email-timeout": 0.04, "fcm-token-failure": 0.08, "latency-tails": 0.16,
                         "network-failure": 0, "network-timeout": 0.05, "trigger-duplicate": 0],
                outages: [OutageDraw(service: "storage", startsPerHour: 4.47, shortestSeconds: 469, longestSeconds: 4012, severity: 0.5, startsDown: false)])
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            givenUp = !Self.entries("snipe given up", report).isEmpty
        }
        #expect(givenUp, "no snipe was given up in seeds 1–40")
    }

    /// Seed 164: a client-network outage (severity 1) began while a bid was in flight; every
    /// attempt failed and the app said ABORTED (the bidder's renames now wait the outage out).
    @Test func auctionRaceBidInAnOutageWorldPasses() throws {
        let report = try Self.run(
            "auction-race", seed: 164, strategy: .nonpreemptive,
            parameters: ["bidders": 12, "bidsPerBidder": 1, "burstPercent": 83, "buyNow": 1, "buyNowAtPercent": 95, "doubleTapPercent": 10,
                         "duplicatePercent": 5, "durationSeconds": 30, "honors": 1, "raiseOwnPercent": 7, "renamePercent": 100, "renamesPerRenamer": 2,
                         "snipePercent": 60, "sniperPercent": 1, "sniperWindowMilliseconds": 2000, "snipesPerSniper": 18],
            faults: ["email-rate-limit": 0, "fcm-token-failure": 0.0138, "latency-tails": 0.139, "network-failure": 0.2, "schedule-duplicate": 0.02,
                     "schedule-overlap": 0.5851, "storage-upload-failure": 0.3, "trigger-duplicate": 0],
            outages: [
                OutageDraw(service: "client-network", startsPerHour: 5.4, shortestSeconds: 179, longestSeconds: 1796, severity: 1, startsDown: false),
                OutageDraw(service: "fcm", startsPerHour: 2, shortestSeconds: 56, longestSeconds: 86, severity: 1, startsDown: true),
            ])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(Self.observations("bid-not-lost", report) > 0)
    }

    /// Outages of one to two minutes (severity 1) starting about every three minutes: a bid that
    /// meets one fails, and the app cannot read the honor to tell whether an attempt landed, so it
    /// says the outcome is unknown ("may have gone through"), not that it failed.
    @Test func auctionRaceBidsInOutagesEndUnknownNotFailed() throws {
        var unknown = 0
        for seed in UInt64(1)...6 {
            let report = try Self.run(
                "auction-race", seed: seed, strategy: .random, parameters: [:], faults: ["admin-call-failure": 0, "cold-start": 0],
                outages: [OutageDraw(service: "client-network", startsPerHour: 20, shortestSeconds: 60, longestSeconds: 120, severity: 1, startsDown: false)])
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            unknown += Self.entries("may have gone through", report).count
        }
        #expect(unknown > 0, "no bid met an outage in seeds 1–6")
    }

    /// Seed 857: an outage at the start refused u9's sign-in; their bids went on without a users
    /// document, and an OUTBID found nobody to notify. Sign-ins now wait the outage out.
    @Test func auctionRaceBiddersSignInThroughAnOutage() throws {
        let report = try Self.run(
            "auction-race", seed: 857, strategy: .pct(depth: 2, horizon: 1208),
            parameters: ["bidders": 17, "bidsPerBidder": 6, "burstPercent": 80, "buyNow": 0, "buyNowAtPercent": 85, "doubleTapPercent": 10,
                         "duplicatePercent": 0, "durationSeconds": 60, "honors": 1, "raiseOwnPercent": 100, "renamePercent": 81, "renamesPerRenamer": 1,
                         "snipePercent": 1, "sniperPercent": 0, "sniperWindowMilliseconds": 4153, "snipesPerSniper": 3],
            faults: ["contention-abort": 0.3, "email-rate-limit": 0.3, "network-failure": 0, "network-timeout": 0.004, "schedule-duplicate": 0.08,
                     "trigger-reorder": 0.6],
            outages: [OutageDraw(service: "client-network", startsPerHour: 0.5, shortestSeconds: 714, longestSeconds: 807, severity: 0.58, startsDown: true)])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(Self.entries("sign-up failed", report).isEmpty, "\(Self.entries("sign-up failed", report))")
        #expect(Self.observations("outbid-for-every-overtaken-winner", report) > 0)
    }

    /// Seed 929: the Buy Now presser renamed twice while their Buy Now was in flight, which then
    /// committed the name between the two after the rename's propagation. The buyer changes no name.
    @Test func auctionRaceBuyerChangesNoNameDuringBuyNow() throws {
        let report = try Self.run(
            "auction-race", seed: 929, strategy: .nonpreemptive,
            parameters: ["bidders": 12, "bidsPerBidder": 6, "burstPercent": 80, "buyNow": 1, "buyNowAtPercent": 13, "doubleTapPercent": 10,
                         "duplicatePercent": 5, "durationSeconds": 11, "honors": 1, "raiseOwnPercent": 15, "renamePercent": 99, "renamesPerRenamer": 2,
                         "snipePercent": 60, "sniperPercent": 65, "sniperWindowMilliseconds": 486, "snipesPerSniper": 17],
            faults: ["contention-abort": 0.3259, "email-rate-limit": 0.04, "latency-tails": 0.2175, "network-failure": 0, "storage-upload-failure": 0.0567,
                     "trigger-duplicate": 0.0724, "trigger-reorder": 0.2311],
            outages: [
                OutageDraw(service: "slow-network", startsPerHour: 2, shortestSeconds: 160, longestSeconds: 445, severity: 0.39, startsDown: false),
                OutageDraw(service: "sendgrid", startsPerHour: 6, shortestSeconds: 388, longestSeconds: 1408, severity: 0.78, startsDown: false),
            ])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(!Self.entries("bought", report).isEmpty && Self.observations("bidder-names-current", report) > 0)
        #expect(report.timeline.filter { $0.user == "u11@knb.org" && $0.event.hasPrefix("rename") }.isEmpty)
    }

    /// Seed 10: a rename met a client-network outage and gave up after its ten attempts while the
    /// record kept the new name. It is now kept pending until it gets through.
    @Test func auctionRaceRenameOutlastsAnOutage() throws {
        let report = try Self.run(
            "auction-race", seed: 10, strategy: .random,
            parameters: ["bidders": 12, "bidsPerBidder": 3, "burstPercent": 80, "buyNow": 0, "buyNowAtPercent": 74, "doubleTapPercent": 10,
                         "duplicatePercent": 1, "durationSeconds": 60, "honors": 1, "raiseOwnPercent": 15, "renamePercent": 100, "renamesPerRenamer": 2,
                         "snipePercent": 68, "sniperPercent": 31, "sniperWindowMilliseconds": 2000, "snipesPerSniper": 9],
            faults: ["contention-abort": 0.6, "email-rate-limit": 0.1777, "email-timeout": 0.0256, "fcm-token-failure": 0.02, "network-failure": 0.04,
                     "schedule-duplicate": 0.5, "storage-upload-failure": 0, "trigger-duplicate": 0.3, "trigger-reorder": 0],
            outages: [
                OutageDraw(service: "client-network", startsPerHour: 2, shortestSeconds: 604, longestSeconds: 2858, severity: 0.88, startsDown: true),
                OutageDraw(service: "slow-network", startsPerHour: 5.63, shortestSeconds: 100, longestSeconds: 6480, severity: 1, startsDown: true),
                OutageDraw(service: "fcm", startsPerHour: 6, shortestSeconds: 217, longestSeconds: 3574, severity: 0.46, startsDown: true),
                OutageDraw(service: "storage", startsPerHour: 0.88, shortestSeconds: 88, longestSeconds: 405, severity: 1, startsDown: false),
            ])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(Self.entries("rename failed", report).isEmpty, "\(Self.entries("rename failed", report))")
        #expect(Self.observations("bidder-names-current", report) > 0)
    }

    /// A bid the app gives up on within its patience is still a lost bid: the literal one-round
    /// design is caught with the zoo's sniping bots.
    @Test func quickGiveUpIsStillLost() throws {
        let caught = try caughtSeeds("auction-race", variant: "bid-burst-loses-bids", parameters: AppScenarioTests.sniping,
                                     strategy: .random, seeds: 1...5, enough: 1)
        #expect(caught.first?.check == "bid-not-lost", "\(caught)")
    }
}
