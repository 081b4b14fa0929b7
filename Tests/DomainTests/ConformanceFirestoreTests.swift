import Domain
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, Firestore (docs/domain.md "Conformance suite"): the write-rate limit,
/// the client transaction runner's retries and backoff, field transforms and create/set/add,
/// and the virtual time every admin-SDK call takes.
@Suite struct ConformanceFirestoreTests {
    // MARK: Aborts above the write rate

    /// One-attempt client transactions (so every ABORTED is one commit's fate, and nothing else
    /// contends) on `documents` fresh documents, `interval` apart. Returns, per document and
    /// position, whether the commit aborted.
    static func rateAborts(seed: UInt64, interval: Duration, writesPerDocument: Int, documents: Int) async throws -> [[Bool]] {
        var faults = BackendFaults.none
        faults.abortProbabilityPerExcessWrite = BackendFaults.default.abortProbabilityPerExcessWrite
        faults.transactionMaxAttempts = 1
        let backend = makeBackend(seed: seed, faults: faults)
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        var outcomes: [[Bool]] = []
        for document in 0..<documents {
            let path = DocumentPath("counters", "c\(document)")
            var aborted: [Bool] = []
            for _ in 0..<writesPerDocument {
                let error = await backendError {
                    try await client.runTransaction { tx in
                        _ = try await tx.get(path)
                        tx.merge(path, ["n": .increment(1)])
                    }
                }
                #expect(error == nil || error?.code == "ABORTED", "\(String(describing: error))")
                aborted.append(error != nil)
                try await backend.env.clock.sleep(for: interval)
            }
            let committed = Int64(aborted.filter { !$0 }.count)
            #expect(await backend.firestore.snapshot(path)["n"]?.intValue ?? 0 == committed, "an aborted commit left no effect")
            outcomes.append(aborted)
        }
        return outcomes
    }

    /// At or below 1 write/s nothing aborts from the rate (2 × 1,200 commits).
    @Test(arguments: [Duration.seconds(1), .seconds(2)]) func atOrBelowOneWritePerSecondNothingAborts(interval: Duration) async throws {
        let outcomes = try await Self.rateAborts(seed: 41, interval: interval, writesPerDocument: 60, documents: 20)
        #expect(outcomes.joined().filter { $0 }.count == 0)
    }

    /// A burst of `documentBurstWrites` (5) in one instant passes; beyond it commits abort with a
    /// probability that rises with the backlog, so the sustained committed rate is about 1/s
    /// whatever the offered rate and the abort share is about 1 − 1/r at r writes/s. Tolerance:
    /// the committed rate after the burst is the rate plus the final backlog (≤ ~7 writes) over
    /// the 60 s span, so [1.0, 1.15]/s, and the abort share follows from the same count; 30
    /// documents per rate (7,200 commits at 4/s).
    @Test func aboveOneWritePerSecondAbortsRiseWithTheExcessRate() async throws {
        let burst = Int(BackendFaults.default.documentBurstWrites)
        let instant = try await Self.rateAborts(seed: 42, interval: .zero, writesPerDocument: 12, documents: 200)
        #expect(instant.allSatisfy { !$0.prefix(burst).contains(true) }, "the first \(burst) writes of a burst never abort")
        let afterBurst = instant.map { $0.dropFirst(burst) }.joined()
        #expect(afterBurst.filter { $0 }.count > afterBurst.count / 4, "writes beyond the burst in one instant abort")

        var previousShare = 0.0
        for (rate, seed) in [(2.0, UInt64(43)), (4, 44), (8, 45)] {
            let span = 60.0, perDocument = Int(span * rate)
            let outcomes = try await Self.rateAborts(
                seed: seed, interval: .nanoseconds(Int64(1e9 / rate)), writesPerDocument: perDocument, documents: 30)
            let all = outcomes.joined()
            let share = Double(all.filter { $0 }.count) / Double(all.count)
            let committed = Double(all.filter { !$0 }.count) / Double(outcomes.count)
            let sustained = (committed - Double(burst)) / (span - 1 / rate)
            #expect(sustained >= 1.0 && sustained <= 1.15, "at \(rate)/s: \(sustained) committed writes/s after the burst")
            // Conservation: committed = burst + 1/s × span + final backlog (0 to ~7 writes).
            let offered = Double(perDocument)
            let expected = (1 - (Double(burst) + span + 8) / offered)...(1 - (Double(burst) + span - 1) / offered)
            #expect(expected.contains(share), "at \(rate)/s: abort share \(share), want \(expected) (≈ 1 − 1/r)")
            #expect(share > previousShare, "abort share rises with the offered rate")
            previousShare = share
            // Within one document the abort probability rises with the backlog: early positions
            // after the burst abort less often than the steady state.
            let early = outcomes.map { $0[burst..<(burst + 3)] }.joined(), late = outcomes.map { $0[(perDocument / 2)...] }.joined()
            let earlyShare = Double(early.filter { $0 }.count) / Double(early.count)
            let lateShare = Double(late.filter { $0 }.count) / Double(late.count)
            #expect(earlyShare < lateShare, "at \(rate)/s: first writes after the burst \(earlyShare), steady state \(lateShare)")
        }
    }

    // MARK: Client transaction retries and backoff

    /// 1,000 client transactions whose every attempt conflicts (the body itself changes the
    /// document it read). Each takes 5 attempts; the k-th wait is 1 s × 1.5^(k−1) × U[0.5, 1.5].
    /// Normalised waits (4,000, sd 0.289 each): all in [0.5, 1.5], mean within ±0.02 of 1 (4σ is
    /// 0.018), both ends of the jitter reached (below 0.52 and above 1.48; missing one has
    /// probability 0.98^4000). Total (mean 8.125 s, sd 1.28 s): mean within ±0.17 s (4σ 0.162 s).
    @Test func abortedIsRetriedFiveTimesWithJitteredExponentialBackoff() async throws {
        let backend = makeBackend(seed: 51)
        let doc = DocumentPath("honors", "h1")
        try await backend.firestore.create(doc, ["n": 0])
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let faults = backend.faults
        var normalised = Samples(), totals = Samples()
        let transactions = 1_000
        for _ in 0..<transactions {
            let starts = Mutex<[Timestamp]>([])
            let start = backend.env.clock.now
            let error = await backendError {
                try await client.runTransaction { tx in
                    _ = try await tx.get(doc)
                    starts.withLock { $0.append(backend.env.clock.now) }
                    try await backend.firestore.update(doc, ["n": .increment(1)])
                    tx.update(doc, ["n": .set(-1)])
                }
            }
            #expect(error == .aborted(.contention))
            let attempts = starts.withLock { $0 }
            #expect(attempts.count == faults.transactionMaxAttempts)
            var nominal = faults.transactionBackoffInitial.seconds
            for (earlier, later) in zip(attempts, attempts.dropFirst()) {
                normalised.add((later - earlier).seconds / nominal)
                nominal *= faults.transactionBackoffMultiplier
            }
            totals.add((backend.env.clock.now - start).seconds)
        }
        #expect(normalised.count == transactions * 4)
        #expect(normalised.minimum >= 0.5 - 1e-9 && normalised.maximum <= 1.5 + 1e-9)
        #expect(normalised.minimum < 0.52 && normalised.maximum > 1.48, "jitter spans ±50 %")
        #expect(abs(normalised.mean - 1) <= 0.02, "mean normalised wait \(normalised.mean)")
        #expect(abs(totals.mean - 8.125) <= 0.17, "mean time to ABORTED \(totals.mean) s")
    }

    /// Not retried: an error the body throws, PERMISSION_DENIED; offline fails before any attempt.
    /// Each 100 times: always one attempt (none offline), and no virtual time spent waiting.
    @Test func appErrorsPermissionDeniedAndOfflineAreNotRetried() async throws {
        var rules = SecurityRules()
        rules.match("honors") { $0.operation == .get }
        let backend = makeBackend(seed: 52, rules: rules)
        let doc = DocumentPath("honors", "h1")
        try await backend.firestore.create(doc, ["n": 0])
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let offline = backend.client(auth: AuthContext(uid: "o"), label: "o")
        offline.network.setOnline(false)
        struct BidTooLow: Error {}
        for _ in 0..<100 {
            let start = backend.env.clock.now
            let attempts = Counter()
            await #expect(throws: BidTooLow.self) {
                try await client.runTransaction { tx in _ = try await tx.get(doc); attempts.next(); throw BidTooLow() }
            }
            let denied = await backendError {
                try await client.runTransaction { tx in _ = try await tx.get(doc); attempts.next(); tx.update(doc, ["n": .set(1)]) }
            }
            #expect(denied?.code == "PERMISSION_DENIED")
            let unavailable = await backendError {
                try await offline.runTransaction { tx in attempts.next(); _ = try await tx.get(doc) }
            }
            #expect(unavailable?.code == "UNAVAILABLE")
            #expect(attempts.count == 2)
            #expect(backend.env.clock.now == start)
        }
    }

    // MARK: Transforms, create/set/add

    @Test func transformsCreateSetAndAddFollowTheModelRules() async throws {
        let backend = makeBackend(seed: 61)
        let doc = DocumentPath("posts", "p1")
        try await backend.firestore.create(doc, ["n": 0, "xs": ["a", "b", "a", "c", "a"]])
        for _ in 0..<3 { try await backend.firestore.update(doc, ["n": .increment(1)]) }
        #expect(await backend.firestore.snapshot(doc)["n"] == 3, "increment is not idempotent")
        for _ in 0..<3 { try await backend.firestore.update(doc, ["xs": .arrayUnion(["d"])]) }
        #expect(await backend.firestore.snapshot(doc)["xs"] == ["a", "b", "a", "c", "a", "d"], "arrayUnion is idempotent")
        try await backend.firestore.update(doc, ["xs": .arrayRemove(["a"])])
        #expect(await backend.firestore.snapshot(doc)["xs"] == ["b", "c", "d"], "arrayRemove removes every instance")

        for index in 0..<100 {
            let path = DocumentPath("bookings", "b\(index)")
            try await backend.firestore.create(path, ["by": "first"])
            #expect(await backendError { try await backend.firestore.create(path, ["by": "second"]) } == .alreadyExists(path))
            #expect(await backend.firestore.snapshot(path)["by"] == "first")
        }
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        try await client.setData(doc, ["only": 1])
        #expect(await backend.firestore.snapshot(doc).fields == ["only": 1], "client setData overwrites every field")

        var ids = Set<String>()
        for _ in 0..<1_000 { ids.insert(try await client.add("kiddush", ["date": "2026-01-17"]).id) }
        for _ in 0..<1_000 { ids.insert(try await backend.firestore.add("kiddush", ["date": "2026-01-17"]).id) }
        #expect(ids.count == 2_000, "add() makes a distinct id every time")
        #expect(backend.firestore.query("kiddush").count == 2_000, "so every booking of one slot succeeds")
    }

    // MARK: Admin-SDK latency

    /// 1,000 rounds of get/create/set/merge/update/delete/add (7,000 calls): each takes virtual
    /// time > 0, at most 400 ms; binomial counts (4σ): ≤ 8 ms at 0.49 (p50 about 8 ms),
    /// > 16 ms at 0.02 (the tail). `snapshot` and `query` take none; a server transaction's
    /// reads and its commit each take some.
    @Test func everyAdminCallTakesTheAdminLatency() async throws {
        var faults = BackendFaults.none
        faults.adminOperationLatency = BackendFaults.default.adminOperationLatency
        let backend = makeBackend(seed: 71, faults: faults)
        let firestore = backend.firestore
        let clock = backend.env.clock
        var latencies = Samples()
        func timed(_ body: () async throws -> Void) async rethrows -> Double {
            let start = clock.now
            try await body()
            return (clock.now - start).seconds
        }
        let rounds = 1_000
        for index in 0..<rounds {
            let path = DocumentPath("admin", "a\(index)")
            latencies.add(try await timed { try await firestore.create(path, ["n": 0]) })
            latencies.add(await timed { _ = await firestore.get(path) })
            latencies.add(try await timed { try await firestore.set(path, ["n": 1]) })
            latencies.add(try await timed { try await firestore.merge(path, ["m": .set(1)]) })
            latencies.add(try await timed { try await firestore.update(path, ["n": .increment(1)]) })
            latencies.add(try await timed { try await firestore.delete(path) })
            latencies.add(try await timed { _ = try await firestore.add("admin-added", ["n": 0]) })
            #expect(await timed { _ = await firestore.snapshot(path) } == 0)
            #expect(await timed { _ = firestore.query("admin") } == 0)
        }
        let calls = rounds * 7
        #expect(latencies.count == calls)
        #expect(latencies.minimum > 0 && latencies.maximum <= 0.4)
        let model = faults.adminOperationLatency
        let median = model.median.seconds, body = 1 - model.tailProbability
        let atMostMedian = latencies.count(atMost: median), tail = latencies.count(above: 2 * median)
        #expect(BinomialBound.contains(observed: atMostMedian, trials: calls, probability: body / 2),
                "\(atMostMedian) ≤ \(median) s, want \(BinomialBound.band(trials: calls, probability: body / 2))")
        #expect(BinomialBound.contains(observed: tail, trials: calls, probability: model.tailProbability),
                "\(tail) > \(2 * median) s, want \(BinomialBound.band(trials: calls, probability: model.tailProbability))")

        let a = DocumentPath("admin", "x"), b = DocumentPath("admin", "y")
        for _ in 0..<100 {
            let reads = Mutex<[Double]>([])
            let bodyEnd = Mutex(clock.now)
            try await firestore.runTransaction { tx in
                for path in [a, b] {
                    let start = clock.now
                    _ = try await tx.get(path)
                    reads.withLock { $0.append((clock.now - start).seconds) }
                }
                tx.set(a, ["n": 1])
                bodyEnd.withLock { $0 = clock.now }
            }
            #expect(reads.withLock { $0.allSatisfy { $0 > 0 } }, "each read of a server transaction takes time")
            #expect(clock.now > bodyEnd.withLock { $0 }, "its commit takes time")
        }
    }

    /// Because a function's read and its later write are apart in time, a client write can land
    /// between them (a lost update of the read-then-write function). 300 documents, each read and
    /// rewritten by a function while a client (no network latency) writes 1–20 ms later: some
    /// client writes land in between; with the admin latency off, none does.
    @Test func aClientWriteCanLandBetweenAFunctionsReadAndWrite() throws {
        func interleaved(adminLatency: LatencyModel) throws -> Int {
            var faults = BackendFaults.none
            faults.adminOperationLatency = adminLatency
            let configured = faults
            return try onSimulator(seed: 72) { env in
                let backend = Backend(env: env, faults: configured)
                backend.setRules(.allowAll)
                let landedBetween = Counter()
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<300 {
                        let path = DocumentPath("counters", "c\(index)")
                        group.addTask {
                            let read = await backend.firestore.get(path)
                            let written = try? await backend.firestore.set(path, ["by": "function"])
                            if let written, written.version > read.version + 1 { landedBetween.next() }
                        }
                        group.addTask {
                            try? await env.clock.sleep(for: .milliseconds(1 + index % 20))
                            let client = backend.client(auth: AuthContext(uid: "u\(index)"), label: "u\(index)")
                            _ = try? await client.setData(path, ["by": "client"])
                        }
                    }
                }
                return landedBetween.count
            }
        }
        let measured = try interleaved(adminLatency: BackendFaults.default.adminOperationLatency)
        #expect(measured > 30, "\(measured) of 300 client writes landed inside the function")
        #expect(try interleaved(adminLatency: .zero) == 0)
    }
}
