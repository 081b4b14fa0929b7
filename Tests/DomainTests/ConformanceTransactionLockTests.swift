import Domain
import Sim
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, server transactions in a pessimistic database (MODEL_RULES §23;
/// docs/domain.md, "Server transactions lock"): a server transaction's reads lock the documents
/// until it ends, so writers wait for it; an older transaction wounds a younger one; a transaction
/// idle 60 s or alive 270 s expires. Measured on the simulator (order in time is the point), with
/// no other fault on.
@Suite struct ConformanceTransactionLockTests {
    static let doc = DocumentPath("docs", "d")

    /// No fault, no latency, locks as configured.
    static func faults(_ mode: ConcurrencyMode) -> BackendFaults {
        var faults = BackendFaults.none
        faults.serverTransactionConcurrency = mode
        return faults
    }

    /// What one write racing one slow server transaction saw: when the write landed, how many
    /// attempts the transaction took, and the ledger's lock kinds.
    struct Race: Sendable {
        var writeLandedAfter: Duration
        var attempts: Int
        var lockWaits: Int
        var expired: Int
        var final: Int64
    }

    /// A server transaction reads `doc`, then (on its first attempt) spends `hold` in its body (a
    /// slow call) before it writes `n + 10`; 1 s after it starts, a plain write sets `n = 1`.
    static func race(_ mode: ConcurrencyMode, hold: Duration, seed: UInt64 = 1) throws -> Race {
        try onSimulator(seed: seed) { env in
            let backend = Backend(env: env, faults: faults(mode))
            try await backend.firestore.create(doc, ["n": 0])
            let start = env.clock.now
            let attempts = Tally()
            async let transaction: Void = {
                _ = try? await backend.firestore.runTransaction { tx in
                    attempts.add()
                    let n = try await tx.get(doc)["n"]?.intValue ?? -1
                    if attempts.value == 1 { try? await env.clock.sleep(for: hold) }
                    tx.update(doc, ["n": .set(.int(n + 10))])
                }
            }()
            try? await env.clock.sleep(for: .seconds(1))
            _ = try await backend.firestore.update(doc, ["n": .set(1)])
            let landed = env.clock.now - start
            await transaction
            await backend.waitUntilIdle()
            let tallies = backend.faultLedger.tallies
            #expect(backend.firestore.liveTransactionAttempts == 0, "every attempt left the lock table")
            return Race(
                writeLandedAfter: landed, attempts: attempts.value,
                lockWaits: tallies[.lockWait]?.observed ?? 0, expired: tallies[.transactionExpired]?.observed ?? 0,
                final: await backend.firestore.get(doc)["n"]?.intValue ?? -1)
        }
    }

    /// Pessimistic: the write waits for the transaction (5 s), which commits on its first attempt
    /// from what it read; the write lands after it. Optimistic: the write lands at once and the
    /// transaction, whose read changed, runs again and builds on the write.
    @Test func aPlainWriteWaitsForTheTransactionThatReadTheDocument() throws {
        let pessimistic = try Self.race(.pessimistic, hold: .seconds(5))
        #expect(pessimistic.writeLandedAfter >= .seconds(5) && pessimistic.writeLandedAfter < .seconds(6))
        #expect(pessimistic.attempts == 1 && pessimistic.lockWaits == 1 && pessimistic.expired == 0)
        #expect(pessimistic.final == 1, "the write landed after the transaction's 0 + 10")
        let optimistic = try Self.race(.optimistic, hold: .seconds(5))
        #expect(optimistic.writeLandedAfter < .milliseconds(1_010), "it lands at once, 1 s in")
        #expect(optimistic.attempts == 2 && optimistic.lockWaits == 0)
        #expect(optimistic.final == 11, "the second attempt read the write's 1")
    }

    /// A transaction that holds its locks idle for 61 s expires at 60 s: the waiting write lands
    /// then, the first attempt's commit fails ABORTED, and the retry commits.
    @Test func aTransactionIdlePastSixtySecondsExpiresAndIsRetried() throws {
        let race = try Self.race(.pessimistic, hold: .seconds(61))
        #expect(race.writeLandedAfter >= .seconds(60) && race.writeLandedAfter < .milliseconds(60_100), "\(race.writeLandedAfter)")
        #expect(race.expired == 1 && race.attempts == 2)
        #expect(race.final == 11, "the retry read the write's 1")
    }

    /// A transaction that never idles 60 s (a read every 50 s) still ends at 270 s: its read past
    /// the lifetime fails ABORTED with the lifetime named.
    @Test func aTransactionExpiresAtTwoHundredSeventySecondsHoweverBusy() throws {
        let error = try onSimulator(seed: 2) { env -> BackendError? in
            var faults = Self.faults(.pessimistic)
            faults.serverTransactionMaxAttempts = 1
            let backend = Backend(env: env, faults: faults)
            try await backend.firestore.create(Self.doc, ["n": 0])
            let reads = Tally()
            let error = await backendError {
                try await backend.firestore.runTransaction { tx in
                    for _ in 0..<7 {
                        _ = try await tx.get(Self.doc)
                        reads.add()
                        try? await env.clock.sleep(for: .seconds(50))
                    }
                }
            }
            #expect(reads.value == 6, "reads at 0, 50, …, 250 s; the one at 300 s fails")
            #expect(backend.faultLedger.tallies[.transactionExpired]?.observed == 1)
            let expiry = backend.faultLedger.events.first { $0.kind == FaultKind.transactionExpired.rawValue }
            #expect(expiry?.elapsedNanoseconds == 300_000_000_000, "expired at the read at 300 s")
            return error
        }
        #expect(error?.code == "ABORTED", "\(String(describing: error))")
    }

    /// The reason an expired transaction's next step gives names the limit it ran past.
    @Test func anExpiredTransactionSaysWhichLimitItRanPast() {
        #expect(AbortReason.expired(idle: true, limit: .seconds(60)).description.contains("idle past 60.0 seconds"))
        #expect(AbortReason.expired(idle: false, limit: .seconds(270)).description.contains("270.0 seconds lifetime"))
    }

    /// Two server transactions that read A and B in opposite orders, each then incrementing both,
    /// over 200 seeds: every run finishes (no deadlock), no increment is lost, the older one never
    /// retries, and across the seeds some younger ones were wounded.
    @Test func oppositeLockOrdersResolveByAgeWithoutDeadlock() throws {
        let a = DocumentPath("docs", "a"), b = DocumentPath("docs", "b")
        var wounded = 0
        var failures: [String] = []
        for seed in UInt64(1)...200 {
            let outcome = try onSimulator(seed: seed) { env -> (a: Int64, b: Int64, olderAttempts: Int, wounded: Int) in
                var faults = BackendFaults.default
                faults.functionCrashProbability = 0
                faults.adminCallFailureProbability = 0
                let backend = Backend(env: env, faults: faults)
                try await backend.firestore.create(a, ["n": 0])
                try await backend.firestore.create(b, ["n": 0])
                let olderAttempts = Tally()
                @Sendable func incrementBoth(first: DocumentPath, second: DocumentPath, counted: Bool) async throws {
                    try await backend.firestore.runTransaction { tx in
                        if counted { olderAttempts.add() }
                        let x = try await tx.get(first)["n"]?.intValue ?? 0
                        let y = try await tx.get(second)["n"]?.intValue ?? 0
                        tx.update(first, ["n": .set(.int(x + 1))])
                        tx.update(second, ["n": .set(.int(y + 1))])
                    }
                }
                try await incrementBoth(first: a, second: b, counted: false)  // warm-up: both exist, counts 1
                async let older: Void = incrementBoth(first: a, second: b, counted: true)
                async let younger: Void = { try? await env.clock.sleep(for: .milliseconds(1)); try await incrementBoth(first: b, second: a, counted: false) }()
                try await older
                try await younger
                return (await backend.firestore.get(a)["n"]?.intValue ?? -1, await backend.firestore.get(b)["n"]?.intValue ?? -1,
                        olderAttempts.value, backend.faultLedger.tallies[.transactionWounded]?.observed ?? 0)
            }
            wounded += outcome.wounded
            if outcome.a != 3 || outcome.b != 3 { failures.append("seed \(seed): a=\(outcome.a) b=\(outcome.b)") }
            if outcome.olderAttempts != 1 { failures.append("seed \(seed): the older transaction ran \(outcome.olderAttempts) times") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(wounded > 0, "no younger transaction was ever wounded in 200 seeds")
    }

    /// Server transactions, client transactions and plain increments on two documents from eight
    /// tasks over 200 seeds: every run finishes, no committed increment is lost, and the lock
    /// table is empty at the end. Pessimistic runs wait on locks; optimistic runs never do.
    @Test(arguments: [ConcurrencyMode.pessimistic, .optimistic])
    func mixedWritersNeverDeadlockOrLoseAnIncrement(mode: ConcurrencyMode) throws {
        let docs = [DocumentPath("docs", "a"), DocumentPath("docs", "b")]
        var failures: [String] = []
        var waits = 0
        for seed in UInt64(1)...200 {
            do {
                let outcome = try onSimulator(seed: seed) { env -> (committed: Int, total: Int64, waits: Int, live: Int) in
                    var faults = BackendFaults.default
                    faults.serverTransactionConcurrency = mode
                    faults.functionCrashProbability = 0
                    let backend = Backend(env: env, faults: faults)
                    let client = backend.client(auth: AuthContext(uid: "u", email: "u@x"), label: "device")
                    for doc in docs { try await backend.firestore.create(doc, ["n": 0]) }
                    let committed = await withTaskGroup(of: Int.self) { group -> Int in
                        for worker in 0..<8 {
                            group.addTask {
                                var done = 0
                                for round in 0..<3 {
                                    let order = (worker + round) % 2 == 0 ? docs : docs.reversed()
                                    switch worker % 3 {
                                    case 0:
                                        let ok: Bool? = try? await backend.firestore.runTransaction { tx -> Bool in
                                            let x = try await tx.get(order[0])["n"]?.intValue ?? 0
                                            let y = try await tx.get(order[1])["n"]?.intValue ?? 0
                                            tx.update(order[0], ["n": .set(.int(x + 1))])
                                            tx.update(order[1], ["n": .set(.int(y + 1))])
                                            return true
                                        }
                                        if ok == true { done += 2 }
                                    case 1:
                                        let ok: Bool? = try? await client.runTransaction { tx -> Bool in
                                            let x = try await tx.get(order[0])["n"]?.intValue ?? 0
                                            tx.update(order[0], ["n": .set(.int(x + 1))])
                                            return true
                                        }
                                        if ok == true { done += 1 }
                                    default:
                                        if (try? await backend.firestore.update(order[0], ["n": .increment(1)])) != nil { done += 1 }
                                    }
                                }
                                return done
                            }
                        }
                        return await group.reduce(0, +)
                    }
                    await backend.waitUntilIdle()
                    var total: Int64 = 0
                    for doc in docs { total += await backend.firestore.get(doc)["n"]?.intValue ?? 0 }
                    return (committed, total, backend.faultLedger.tallies[.lockWait]?.observed ?? 0, backend.firestore.liveTransactionAttempts)
                }
                waits += outcome.waits
                if Int64(outcome.committed) != outcome.total { failures.append("seed \(seed): \(outcome.committed) committed, documents say \(outcome.total)") }
                if outcome.live != 0 { failures.append("seed \(seed): \(outcome.live) attempts left in the lock table") }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 200: \(failures.prefix(5))")
        if mode == .pessimistic {
            #expect(waits > 0, "no write ever waited for a server transaction's lock")
        }
    }
}

/// A count shared by tasks of one simulated run.
private final class Tally: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
