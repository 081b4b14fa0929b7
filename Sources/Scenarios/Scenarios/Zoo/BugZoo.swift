import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// The planted bugs the harness must find (the domain's variants), with the scenario that
/// catches each, and a measurement of how fast random and PCT find them and how small the
/// shrunk case is (`rehearse zoo`).
public enum BugZoo {
    /// One planted bug.
    public struct Bug: Sendable, Hashable {
        /// The variant that plants the bug.
        public var variant: String
        /// The app it belongs to.
        public var app: String
        /// The scenario expected to catch it.
        public var scenario: String
        /// What the bug needs: `depth-1` (sequential), `depth-2` (one wrong interleaving),
        /// `depth-3`, or `fault:` the fault it needs (duplicate triggers, contention).
        public var needs: String
        /// Scenario parameters for every seed the zoo runs (e.g. a small `users` so each seed is fast).
        public var parameters: [String: String] = [:]
        /// The faults and outages every seed runs in (nil: the scenario's own), for a bug only an incident shows.
        public var world: World?
    }

    /// A client-network incident: outages of 5–15 minutes, 6 an hour, one at the start, in which
    /// every Firestore request fails (Storage keeps working).
    static let clientNetworkIncident = World(outages: [
        OutageDraw(service: "client-network", startsPerHour: 6, shortestSeconds: 300, longestSeconds: 900, severity: 1, startsDown: true),
    ])
    /// A lossy client-network incident: outages of 10–30 minutes in which 9 requests in 10 fail,
    /// and 3 in 10 of the rest time out after the server applied them (a write whose answer is
    /// lost, then reads that go unanswered).
    static let lossyNetworkIncident = World(faults: ["network-timeout": 0.3], outages: [
        OutageDraw(service: "client-network", startsPerHour: 6, shortestSeconds: 600, longestSeconds: 1_800, severity: 0.9, startsDown: true),
    ])

    /// SafeNSound on heartbeat-timeline at 40 users: about 1.3 s per seed in debug.
    static let heartbeatSmall = ["users": "40"]
    /// Function instances that crash often: one invocation in a hundred dies mid-run.
    static let functionCrashes = World(faults: ["function-crash": 0.01])
    /// Function instances that crash very often: one invocation in twenty (a claim and its send are
    /// one call apart, so a crash between them needs many).
    static let frequentCrashes = World(faults: ["function-crash": 0.05])
    /// A world in which one admin write or commit in five inside a function loses its answer, so
    /// the fan-out's claim (one commit an announcement) loses some in 200 seeds.
    static let adminAnswersLost = World(faults: ["admin-answer-lost": 0.2])
    /// One trigger event in twenty held back 10 s–10 min (`trigger-late` at its ceiling).
    static let lateTriggers = World(faults: ["trigger-late": 0.05])
    /// Client answers lost at the time-out dial's ceiling: one request in twenty acts and times out.
    static let lostClientAnswers = World(faults: ["network-timeout": 0.05])
    /// A world of duplicate trigger events (one in five) where an invocation arriving at its
    /// function's instance limit starts past it half the time.
    static let instanceOvershoots = World(faults: ["trigger-duplicate": 0.2, "instance-overshoot": 0.5])

    /// Every bug with a scenario that can run it, in catalogue order.
    public static let bugs: [Bug] = [
        Bug(variant: "bid-burst-loses-bids", app: "knb", scenario: "auction-race", needs: "fault:contention",
            parameters: ["sniperPercent": "100", "buyNow": "0", "bidders": "24"]),
        Bug(variant: "buy-now-outside-transaction", app: "knb", scenario: "auction-race", needs: "depth-2"),
        Bug(variant: "outbid-rereads-live-doc", app: "knb", scenario: "auction-race", needs: "depth-2"),
        Bug(variant: "outbid-no-dedup", app: "knb", scenario: "auction-race", needs: "fault:duplicate-triggers"),
        Bug(variant: "outbid-self-notify", app: "knb", scenario: "auction-race", needs: "depth-1"),
        Bug(variant: "total-pledged-increment", app: "knb", scenario: "auction-race", needs: "fault:duplicate-triggers"),
        Bug(variant: "like-arrayunion-increment", app: "knb", scenario: "like-storm", needs: "depth-2"),
        Bug(variant: "unlike-nonliker-decrements", app: "knb", scenario: "like-storm", needs: "depth-1"),
        Bug(variant: "reply-count-trigger-increment", app: "knb", scenario: "like-storm", needs: "fault:duplicate-triggers"),
        // A race inside a trigger across admin-SDK round trips: another reply's invocation lands
        // between onPostReplyCreate's read of the parent and its write. The write's own round
        // trip (0–16 ms) is a window the latency draws open about as often as the 10 ms timing
        // window adds, so every strategy, non-preemptive included, finds it at the same rate: a
        // depth-2 bug, not a decision bug (docs/zoo.md). No duplicate deliveries (a duplicate
        // would double-count without any race); half the actions are replies.
        Bug(variant: "reply-count-read-then-write", app: "knb", scenario: "like-storm", needs: "depth-2+function",
            parameters: ["duplicatePercent": "0", "replyPercent": "50"]),
        // onUserUpdate's literal read-then-write of honors.bids: a bid committed between the
        // admin read and the admin write is erased. Like reply-count-read-then-write, a latency
        // window (the write's round trip), not a decision bug (docs/zoo.md). Half the bidders
        // change their name twice (the function is deployed only then).
        Bug(variant: "user-update-read-then-write", app: "knb", scenario: "auction-race", needs: "depth-2+function",
            parameters: ["renamePercent": "50"]),
        // The careful propagation writing the event's name: needs an older rename's event handled
        // after a newer one's: a late event (trigger-late), a reorder within the second, or a
        // retry of an aborted invocation minutes later all do it.
        Bug(variant: "user-update-event-name", app: "knb", scenario: "auction-race", needs: "fault:reordered-triggers",
            parameters: ["renamePercent": "50", "renamesPerRenamer": "4"], world: lateTriggers),
        Bug(variant: "like-notify-per-event", app: "knb", scenario: "like-storm", needs: "fault:duplicate-triggers"),
        Bug(variant: "reply-cascade-query-only", app: "knb", scenario: "like-storm", needs: "depth-2"),
        Bug(variant: "seat-random-id", app: "knb", scenario: "seat-contention", needs: "depth-2"),
        // A request that acted and whose answer was lost (MODEL_RULES §18, §22): the app retries it.
        Bug(variant: "seat-release-plain-delete", app: "knb", scenario: "seat-contention", needs: "fault:network-timeout",
            parameters: ["releasePercent": "100"], world: lostClientAnswers),
        Bug(variant: "kiddush-random-id", app: "knb", scenario: "kiddush-booking", needs: "depth-2"),
        Bug(variant: "kiddush-setdata-overwrite", app: "knb", scenario: "kiddush-booking", needs: "depth-2"),
        Bug(variant: "kiddush-check-send-set", app: "knb", scenario: "kiddush-booking", needs: "depth-3+fault:duplicate-triggers"),
        Bug(variant: "kiddush-delete-clears-date", app: "knb", scenario: "kiddush-booking", needs: "depth-2"),
        // The website syncs (calendar-sync): a booking whose calendar entry commits during the
        // sync's fetch (a race inside the function); a cancellation after the page's last edit
        // (the hash skip); an occasion taken down (no delete).
        Bug(variant: "sync-reads-app-entries-first", app: "knb", scenario: "calendar-sync", needs: "depth-2+function"),
        Bug(variant: "sync-hash-skip-stale", app: "knb", scenario: "calendar-sync", needs: "depth-1"),
        Bug(variant: "occasions-upsert-only", app: "knb", scenario: "calendar-sync", needs: "depth-1"),
        Bug(variant: "occasions-cleared-before-fetch", app: "knb", scenario: "calendar-sync", needs: "depth-1"),
        // SafeNSound: most flaws show sequentially (a pause, the DST change, a late alert); the
        // rate-limit race needs two same-instant calls split between read and write.
        Bug(variant: "random-alert-id", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "unclaimed-sender", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "no-heartbeat-recheck", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "late-pre-notification", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "read-then-write-rate-limit", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-2", parameters: heartbeatSmall),
        Bug(variant: "utc-email", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        // Production requires the due-alert query's composite index; the emulator never does.
        Bug(variant: "alerts-index-not-deployed", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        // Firestore grants a request when any matching statement allows it; first-match passes it.
        Bug(variant: "rules-dev-catch-all", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        // App Check attestation fails for good on some devices (MODEL_RULES §32).
        Bug(variant: "app-check-enforced-heartbeat", app: "safensound", scenario: "heartbeat-timeline", needs: "fault:app-check-attestation-failed",
            parameters: heartbeatSmall),
        Bug(variant: "wall-clock-threshold", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "invalid-token-deactivates", app: "safensound", scenario: "heartbeat-timeline", needs: "fault:invalid-token", parameters: heartbeatSmall),
        Bug(variant: "reinstall-orphans-account", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "contacts-fixed-at-check", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "rules-auth-not-null-only", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        // An email must fall due inside a SendGrid outage: ten 40-minute outages instead of three.
        Bug(variant: "email-failure-marks-failed", app: "safensound", scenario: "heartbeat-timeline", needs: "fault:sendgrid-outage",
            parameters: heartbeatSmall.merging(["emailOutages": "10"]) { $1 }),
        // The daily reminder: each flaw shows sequentially once the window's DST change (or, for the
        // UTC reading, any non-UTC zone) is crossed.
        Bug(variant: "reminder-every-24h", app: "safensound", scenario: "daily-reminder", needs: "depth-1"),
        Bug(variant: "reminder-utc-time", app: "safensound", scenario: "daily-reminder", needs: "depth-1"),
        Bug(variant: "reminder-local-clock-match", app: "safensound", scenario: "daily-reminder", needs: "depth-1"),
        Bug(variant: "two-way-requests", app: "ufree", scenario: "friend-handshake", needs: "depth-1"),
        Bug(variant: "seed-rules-literal", app: "ufree", scenario: "friend-handshake", needs: "depth-1"),
        Bug(variant: "sent-requests-query", app: "ufree", scenario: "friend-handshake", needs: "depth-1"),
        // Contact discovery (contact-discovery): the seed's unkeyed hashedPhoneNumber inverted
        // offline; the blind index enumerated without a quota; national formats never matched.
        Bug(variant: "unsalted-phone-hash", app: "ufree", scenario: "contact-discovery", needs: "depth-1"),
        Bug(variant: "lookup-without-quota", app: "ufree", scenario: "contact-discovery", needs: "depth-1"),
        Bug(variant: "contacts-not-normalized", app: "ufree", scenario: "contact-discovery", needs: "depth-1"),
        // The lookup quota counted in the function instance's memory across an await: two lookups
        // pipelined into one instant overspend it only if the second runs between the first's read
        // and write (a decision inside a function; the non-preemptive schedule passes).
        Bug(variant: "quota-in-memory", app: "ufree", scenario: "contact-discovery", needs: "decision:preemption+function"),
        Bug(variant: "client-tap-guard-only", app: "ufree", scenario: "nudge-storm", needs: "depth-1"),
        // The inbox badge as an event counter: a read on the user's other device never lowers it.
        Bug(variant: "badge-counts-events", app: "ufree", scenario: "nudge-storm", needs: "depth-1"),
        Bug(variant: "utc-today", app: "ufree", scenario: "nudge-storm", needs: "depth-1"),
        Bug(variant: "last-arrival-wins", app: "ufree", scenario: "offline-sync", needs: "depth-2"),
        Bug(variant: "increment-collectors", app: "stampbook", scenario: "stamp-collect", needs: "depth-1"),
        Bug(variant: "blind-like-increment", app: "stampbook", scenario: "stamp-collect", needs: "depth-1"),
        Bug(variant: "post-delete-feed-only", app: "stampbook", scenario: "stamp-social", needs: "depth-1"),
        Bug(variant: "comment-count-increment", app: "stampbook", scenario: "stamp-social", needs: "depth-1"),
        Bug(variant: "follow-count-increment", app: "stampbook", scenario: "stamp-social", needs: "depth-1"),
        Bug(variant: "reseed-overwrites-claim", app: "inspired", scenario: "studio-claim", needs: "depth-1"),
        // A race inside a callable across admin-SDK round trips: two claimants' calls land
        // between each other's read and write.
        Bug(variant: "claim-check-then-write", app: "inspired", scenario: "studio-claim", needs: "depth-2+function"),
        Bug(variant: "author-metadata-never-updated", app: "inspired", scenario: "privacy-revocation", needs: "depth-1"),
        Bug(variant: "privacy-sparse-merge", app: "inspired", scenario: "privacy-revocation", needs: "depth-1"),
        Bug(variant: "author-metadata-from-event", app: "inspired", scenario: "privacy-revocation", needs: "fault:reordered-triggers"),
        Bug(variant: "joined-groups-in-profile", app: "inspired", scenario: "privacy-revocation", needs: "depth-1"),
        Bug(variant: "unreserved-username", app: "inspired", scenario: "privacy-access", needs: "depth-2"),
        Bug(variant: "username-blind-create", app: "inspired", scenario: "privacy-access", needs: "depth-1"),
        Bug(variant: "like-without-transaction", app: "inspired", scenario: "privacy-access", needs: "depth-1"),
        // Cloud Storage (media-uploads): a rules table probe, a reader between a delete and its
        // upload, an upload that failed while its URL was listed.
        Bug(variant: "storage-rules-no-size-check", app: "knb", scenario: "media-uploads", needs: "depth-1"),
        Bug(variant: "avatar-delete-then-upload", app: "inspired", scenario: "media-uploads", needs: "depth-2"),
        Bug(variant: "photo-errors-per-task", app: "stampbook", scenario: "media-uploads", needs: "fault:storage-upload-failure"),
        // A download URL's token bypasses the rules: nothing revokes it when the avatar goes private.
        Bug(variant: "avatar-url-outlives-privacy", app: "inspired", scenario: "media-uploads", needs: "depth-1"),
        // A post whose write failed and whose look back goes unanswered deletes its images; a failed
        // avatar switch or collect whose look back goes unanswered keeps its objects, and nothing
        // looks again: only a network incident longer than the look's retries shows them (the
        // post, only when a lost answer hid a landed write: many posts).
        Bug(variant: "post-cleanup-without-answer", app: "knb", scenario: "media-uploads", needs: "fault:client-network-outage+timeout",
            parameters: ["posters": "10", "postsPerPoster": "10"], world: lossyNetworkIncident),
        Bug(variant: "avatar-cleanup-needs-answer", app: "inspired", scenario: "media-uploads", needs: "fault:client-network-outage",
            world: clientNetworkIncident),
        Bug(variant: "photo-cleanup-needs-answer", app: "stampbook", scenario: "media-uploads", needs: "fault:client-network-outage",
            world: clientNetworkIncident),
        // Bugs that need a scheduling decision: a check and its mark split by a zero-latency
        // await (actor reentrancy; in a function, another invocation's turn), so the default
        // schedule runs each call through and only a preemption (or a timing choice that puts
        // two calls in one instant, then a preemption) interleaves them (docs/zoo.md).
        Bug(variant: "like-guard-reentrant", app: "knb", scenario: "like-storm", needs: "decision:preemption"),
        Bug(variant: "like-dedup-reentrant", app: "stampbook", scenario: "stamp-collect", needs: "decision:preemption"),
        Bug(variant: "collect-guard-reentrant", app: "stampbook", scenario: "stamp-collect", needs: "decision:preemption"),
        Bug(variant: "nudge-guard-reentrant", app: "ufree", scenario: "nudge-storm", needs: "decision:preemption",
            parameters: ["tapGapMaxMilliseconds": "0", "inboxPercent": "0"]),
        Bug(variant: "rate-limit-in-memory", app: "safensound", scenario: "heartbeat-timeline", needs: "decision:preemption+function", parameters: heartbeatSmall),
        Bug(variant: "like-tap-guard-reentrant", app: "inspired", scenario: "privacy-access", needs: "decision:preemption"),
        // Depth 2 with a long sequence in between: the view model's badge recomputation reads the
        // store, then the refresh's whole background upsert (2 hops a row) and the observer's
        // recomputation must run before the view model publishes. Random needs ~2^-(2·rows)
        // luck; PCT needs one change point at the read (docs/zoo.md).
        Bug(variant: "heatmap-unversioned-publish", app: "ufree", scenario: "whos-free", needs: "decision:depth-2"),
        // Bugs of the platform's adversity (docs/zoo.md, "Platform bugs"): each needs a behaviour
        // of real Firebase that a kinder simulator leaves out, on by default.
        Bug(variant: "device-clock-stamps", app: "ufree", scenario: "offline-sync", needs: "fault:device-clock"),
        Bug(variant: "outbid-dedup-in-instance", app: "knb", scenario: "auction-race", needs: "fault:cold-start+duplicate-triggers"),
        Bug(variant: "bid-without-request-id", app: "knb", scenario: "auction-race", needs: "fault:lost-answers-outage"),
        Bug(variant: "profile-page-ignores-listen-error", app: "inspired", scenario: "privacy-revocation", needs: "fault:listener-revoked"),
        // Functions terminated mid-run (a crash, an eviction, the execution timeout) and FCM's
        // 500-token limit (docs/zoo.md, "Platform bugs").
        Bug(variant: "triggers-without-retries", app: "knb", scenario: "auction-race", needs: "fault:function-crash", world: functionCrashes),
        Bug(variant: "booking-claim-never-expires", app: "knb", scenario: "kiddush-booking", needs: "fault:function-crash", world: frequentCrashes),
        Bug(variant: "check-takes-for-good", app: "safensound", scenario: "heartbeat-timeline", needs: "fault:function-crash",
            parameters: heartbeatSmall, world: functionCrashes),
        Bug(variant: "broadcast-one-by-one", app: "knb", scenario: "admin-broadcast", needs: "fault:function-timeout", parameters: ["users": "1500"]),
        Bug(variant: "broadcast-single-multicast", app: "knb", scenario: "admin-broadcast", needs: "limit:fcm-500-tokens",
            parameters: ["users": "600", "devicesPerUser": "2"]),
        Bug(variant: "broadcast-ignores-preference", app: "knb", scenario: "admin-broadcast", needs: "depth-1"),
        Bug(variant: "stale-tokens-kept", app: "knb", scenario: "admin-broadcast", needs: "depth-1"),
        // Server transactions lock what they read (MODEL_RULES §23): optimistic locking passes it.
        Bug(variant: "broadcast-lease-plain-write", app: "knb", scenario: "admin-broadcast", needs: "limit:transaction-locks"),
        // One document's sustained write rate, for plain writes too (MODEL_RULES §25).
        Bug(variant: "broadcast-progress-every-chunk", app: "knb", scenario: "admin-broadcast", needs: "limit:document-write-rate",
            parameters: ["users": "1000"]),
        // An admin write inside a function whose answer is lost (MODEL_RULES §22).
        Bug(variant: "broadcast-own-lease-busy", app: "knb", scenario: "admin-broadcast", needs: "fault:admin-answer-lost", world: adminAnswersLost),
        // A push's time to live: FCM and APNs drop one still waiting for an away device past it (MODEL_RULES §27).
        Bug(variant: "broadcast-push-now-or-never", app: "knb", scenario: "admin-broadcast", needs: "fault:fcm-ttl-expired"),
        // FCM replaces a device's token now and then; the old one answers UNREGISTERED (MODEL_RULES §33).
        Bug(variant: "token-stored-at-sign-in", app: "knb", scenario: "admin-broadcast", needs: "fault:fcm-token-rotated"),
        // Latency compensation: the listener shows the device's own write before the server has it
        // (MODEL_RULES §19); a sync line that ignores `hasPendingWrites` says it is saved.
        Bug(variant: "inbox-synced-from-echo", app: "ufree", scenario: "nudge-storm", needs: "depth-1"),
        // A notification reaches the server before the device's listener draws it, for seconds
        // when the listener's connection dropped (MODEL_RULES §19).
        Bug(variant: "mark-all-read-by-query", app: "ufree", scenario: "nudge-storm", needs: "fault:listener-disconnect"),
        // A listener whose connection is down raises the device's copy first (`isFromCache`).
        Bug(variant: "profile-missing-from-cache", app: "inspired", scenario: "privacy-revocation", needs: "fault:listener-disconnect"),
        // A function's maximum instances, exceeded for a while in a surge (MODEL_RULES §21).
        Bug(variant: "kiddush-one-instance", app: "knb", scenario: "kiddush-booking", needs: "fault:instance-overshoot+duplicate-triggers",
            world: instanceOvershoots),
        // Bugs of a world: each needs a parameter away from its default, so the default world never
        // shows it and a world swarm does (`needs: world:<what>`; docs/zoo.md, "World bugs").
        Bug(variant: "total-pledged-from-honor", app: "knb", scenario: "auction-race", needs: "world:honors>=2"),
        Bug(variant: "nudge-cooldown-half", app: "ufree", scenario: "nudge-storm", needs: "world:durationSeconds>30"),
        Bug(variant: "heatmap-one-week", app: "ufree", scenario: "whos-free", needs: "world:days>7"),
        Bug(variant: "collectors-list-capped", app: "stampbook", scenario: "stamp-collect", needs: "world:users>10"),
        Bug(variant: "places-first-page-only", app: "inspired", scenario: "studio-claim", needs: "world:studios>20"),
        Bug(variant: "reminder-query-first-page", app: "safensound", scenario: "daily-reminder", needs: "world:users>100"),
    ].filter { bug in BuiltInScenarios.all.first { $0.name == bug.scenario }?.variants.contains(bug.variant) ?? false }

    /// The strategies the zoo compares, in table order.
    public static let strategies: [SchedulingStrategy] = [
        .random, .pct(depth: 2, horizon: nil), .pct(depth: 3, horizon: nil), .portfolio,
    ]

    /// How one strategy did on one bug over the zoo's seeds.
    public struct StrategyResult: Sendable, Codable {
        /// The strategy measured.
        public var strategy: String
        /// Seeds run.
        public var seeds: Int
        /// Failing seeds among `seeds`.
        public var hits: Int
        /// The first failing seed (1-based), nil if none.
        public var firstFailure: Int?
        /// `hits` scaled to 1,000 seeds.
        public var hitsPerThousand: Double { seeds == 0 ? 0 : Double(hits) * 1_000 / Double(seeds) }
    }

    /// What the zoo measured for one bug.
    public struct Measurement: Sendable, Codable {
        /// The bug's variant.
        public var variant: String
        /// The bug's app.
        public var app: String
        /// What the bug needs (`depth-1`, `depth-2`, a timing choice).
        public var needs: String
        /// Each strategy's hits.
        public var results: [StrategyResult]
        /// Non-default decisions left after shrinking the first failure (0: the bug shows
        /// without any preemption or timing choice), and before.
        public var shrunkPreemptions: Int?
        /// Non-default decisions in the first failure before shrinking.
        public var preemptionsBefore: Int?
        /// Lines in the shrunk failure's story.
        public var storyEvents: Int?
        /// The check the first failure violated.
        public var check: String?

        /// The result of `strategy` (by its description).
        public func result(_ strategy: String) -> StrategyResult? { results.first { $0.strategy == strategy } }
    }

    /// Measures `bug`: seeds 1...`seeds` under each of `strategies` (no swarm; scenario defaults
    /// overridden by `bug.parameters`, in `bug.world`), spread over `threads`, then shrinks the first failure
    /// (portfolio's, else the first strategy's that failed) within `shrinkRuns` runs.
    public static func measure(
        _ bug: Bug, seeds: Int, shrinkRuns: Int, strategies: [SchedulingStrategy] = BugZoo.strategies, threads: Int = 1
    ) throws(ScenarioError) -> Measurement {
        precondition(seeds >= 1, "the zoo needs at least one seed per bug")
        var parameters: [String: Int] = [:]
        for name in bug.parameters.keys.sorted() {
            guard let value = Int(bug.parameters[name]!) else { throw .malformedParameter("\(name)=\(bug.parameters[name]!)") }
            parameters[name] = value
        }
        var template = RunRequest(scenario: bug.scenario, seed: 1, parameters: parameters, variant: bug.variant)
        template.world = bug.world
        _ = try ScenarioRunner.prepare(template)
        var results: [StrategyResult] = []
        var firstFailing: [RunRequest] = []
        for strategy in strategies {
            let requests = (1...UInt64(seeds)).map { seed in
                var request = template
                request.seed = seed
                request.strategy = strategy
                return request
            }
            let failed = SimulationPool.map(requests, threads: threads) { request in
                (try? ScenarioRunner.execute(request).report.passed) == false
            }
            let first = failed.firstIndex(of: true)
            results.append(StrategyResult(strategy: strategy.description, seeds: seeds, hits: failed.filter { $0 }.count, firstFailure: first.map { $0 + 1 }))
            if let first { firstFailing.append(requests[first]) }
        }
        var measurement = Measurement(variant: bug.variant, app: bug.app, needs: bug.needs, results: results)
        let portfolioFailure = firstFailing.first { $0.strategy == .portfolio }
        if let failing = portfolioFailure ?? firstFailing.first {
            let shrunk = try FailureShrinker.shrink(failing, maxRuns: shrinkRuns)
            measurement.shrunkPreemptions = shrunk.artifact.shrink?.preemptionsAfter
            measurement.preemptionsBefore = shrunk.artifact.shrink?.preemptionsBefore
            measurement.storyEvents = shrunk.artifact.story.count
            measurement.check = shrunk.artifact.violation?.check ?? shrunk.artifact.kind.rawValue
        }
        return measurement
    }
}
