import Domain
import Sim
import SimulatedFirebase
import Testing

/// Read-only transactions (docs/domain.md, "Read-only transactions"): every read sees one
/// instant, never part of a commit; a `readTime` reads the past within the hour; no lock is taken
/// or waited for. On the simulator, default latency, no other fault.
@Suite struct ReadOnlyTransactionTests {
    static let a = DocumentPath("accounts", "a")
    static let b = DocumentPath("accounts", "b")

    static func faults(_ mode: ConcurrencyMode = .pessimistic) -> BackendFaults {
        var faults = BackendFaults.none
        faults.serverTransactionConcurrency = mode
        return faults
    }

    static let accounts = (0..<12).map { DocumentPath("accounts", "a\($0)") }

    /// Transfers among twelve accounts (each a server transaction moving 1 along all of them, so a
    /// commit installs twelve documents one hop at a time) race readers that read every account,
    /// pausing or not between reads; returns the totals the readers saw (always 1,200 when every
    /// read of a reader sees one instant).
    static func totals(readOnly: Bool, seed: UInt64) throws -> [Int64] {
        try onSimulator(seed: seed) { env in
            let backend = Backend(env: env, faults: faults(.optimistic))
            let firestore = backend.firestore
            for account in accounts { try await firestore.create(account, ["n": 100]) }
            let transfers = Task {
                for i in 0..<30 {
                    if i % 3 == 1 { try? await env.clock.sleep(for: .milliseconds(3)) }
                    _ = try? await firestore.runTransaction { tx in
                        var balances: [Int64] = []
                        for account in accounts { balances.append(try await tx.get(account)["n"]?.intValue ?? 0) }
                        for (k, account) in accounts.enumerated() {
                            let delta: Int64 = k == i % accounts.count ? Int64(accounts.count - 1) : -1
                            tx.update(account, ["n": .set(.int(balances[k] + delta))])
                        }
                    }
                }
            }
            // Four readers at once, so some read while a commit is installing its documents.
            let readers = (0..<4).map { reader in
                Task {
                    var totals: [Int64] = []
                    for i in 0..<30 {
                        let pause: Duration = (i + reader) % 2 == 0 ? .zero : .milliseconds(2)
                        totals.append(try await total(readOnly: readOnly, pause: pause, reversed: reader % 2 == 1, in: firestore, env: env))
                    }
                    return totals
                }
            }
            var totals: [Int64] = []
            for reader in readers { totals += try await reader.value }
            await transfers.value
            await backend.waitUntilIdle()
            return totals
        }
    }

    /// One reader's total of every account, pausing `pause` after each read; `reversed` reads
    /// against the commits' install order (path order), so it overtakes an installing commit.
    static func total(readOnly: Bool, pause: Duration, reversed: Bool, in firestore: Firestore, env: DomainEnvironment) async throws -> Int64 {
        func add(_ read: (DocumentPath) async throws -> Int64) async throws -> Int64 {
            var total: Int64 = 0
            for account in reversed ? accounts.sorted().reversed() : accounts {
                total += try await read(account)
                if pause > .zero { try? await env.clock.sleep(for: pause) }
            }
            return total
        }
        guard readOnly else { return try await add { await firestore.get($0)["n"]?.intValue ?? 0 } }
        return try await firestore.runReadOnlyTransaction { tx in try await add { try await tx.get($0)["n"]?.intValue ?? 0 } }
    }

    /// The readers' totals: plain reads catch transfers half-seen (the race is real), a read-only
    /// transaction never does, even while a commit is installing its documents.
    @Test func aReadOnlyTransactionNeverSeesPartOfACommit() throws {
        var torn = 0
        for seed: UInt64 in 1...8 {
            torn += try Self.totals(readOnly: false, seed: seed).filter { $0 != 1_200 }.count
            let totals = try Self.totals(readOnly: true, seed: seed)
            #expect(totals.allSatisfy { $0 == 1_200 }, "seed \(seed): \(totals)")
        }
        #expect(torn > 0, "plain reads never straddled a transfer: the race this test relies on did not happen")
    }

    /// A `readTime` sees the version committed at or before it; a document created later is
    /// missing; a time more than an hour back or in the future is refused as the server refuses it.
    @Test func aReadTimeReadsThePastWithinTheHour() throws {
        try onSimulator(seed: 1) { env in
            let backend = Backend(env: env, faults: Self.faults())
            let firestore = backend.firestore
            firestore.keepVersions()
            let first = try await firestore.create(Self.a, ["n": 1]).updateTime
            try await env.clock.sleep(for: .seconds(30))
            let second = try await firestore.update(Self.a, ["n": .set(2)]).updateTime
            try await firestore.create(Self.b, ["n": 9])
            func read(_ path: DocumentPath, at time: Timestamp?) async throws -> Fields? {
                try await firestore.runReadOnlyTransaction(readTime: time) { try await $0.get(path).fields }
            }
            #expect(try await read(Self.a, at: first) == ["n": 1])
            #expect(try await read(Self.a, at: second - .nanoseconds(1)) == ["n": 1])
            #expect(try await read(Self.a, at: second) == ["n": 2])
            #expect(try await read(Self.a, at: nil) == ["n": 2])
            #expect(try await read(Self.b, at: second - .nanoseconds(1)) == nil, "created after the read time")
            try await env.clock.sleep(for: .seconds(3_600))
            await #expect(throws: BackendError.failedPrecondition("The requested 'read_time' is too old.")) {
                _ = try await read(Self.a, at: first)
            }
            await #expect(throws: BackendError.invalidArgument("The requested 'read_time' cannot be in the future.")) {
                _ = try await read(Self.a, at: env.clock.now + .seconds(5))
            }
            #expect(try await read(Self.a, at: env.clock.now - .seconds(3_599)) == ["n": 2], "a version older than the hour still current")
            await backend.waitUntilIdle()
        }
    }

    /// A read time equal to now sees what stood then and nothing committed later at that same
    /// instant; a transaction held open past the hour reads nothing more.
    @Test func theEdgesOfTheWindow() throws {
        try onSimulator(seed: 1) { env in
            let backend = Backend(env: env, faults: Self.faults())
            let firestore = backend.firestore
            firestore.keepVersions()
            try await firestore.create(Self.a, ["n": 1])
            let now = env.clock.now
            let (first, second) = try await firestore.runReadOnlyTransaction(readTime: now) { tx in
                let first = try await tx.get(Self.a)["n"]?.intValue
                try await firestore.update(Self.a, ["n": .set(2)])  // the same instant: no latency
                return (first, try await tx.get(Self.a)["n"]?.intValue)
            }
            #expect(env.clock.now == now && first == 1 && second == 1, "\(String(describing: first)) then \(String(describing: second))")
            await #expect(throws: BackendError.failedPrecondition("The requested 'read_time' is too old.")) {
                try await firestore.runReadOnlyTransaction { tx in
                    _ = try await tx.get(Self.a)
                    try await env.clock.sleep(for: .seconds(3_601))
                    _ = try await tx.get(Self.a)
                }
            }
            await backend.waitUntilIdle()
        }
    }

    /// Without `keepVersions()`, versions are kept from the first read-only transaction on: a read
    /// time before that, of a document changed since, is refused with what to do.
    @Test func aReadTimeBeforeVersionsWereKeptSaysHowToKeepThem() throws {
        try onSimulator(seed: 1) { env in
            let backend = Backend(env: env, faults: Self.faults())
            let firestore = backend.firestore
            let first = try await firestore.create(Self.a, ["n": 1]).updateTime
            try await env.clock.sleep(for: .seconds(1))
            try await firestore.update(Self.a, ["n": .set(2)])
            do {
                _ = try await firestore.runReadOnlyTransaction(readTime: first) { try await $0.get(Self.a) }
                Issue.record("a version nobody kept was answered")
            } catch let error as BackendError {
                #expect(error.code == "FAILED_PRECONDITION" && "\(error)".contains("keepVersions()"), "\(error)")
            }
            await backend.waitUntilIdle()
        }
    }

    /// A server transaction in a pessimistic database holds a read lock for 5 s: a plain write
    /// waits for it, a read-only transaction reads at once and sees the state before its commit.
    @Test func aReadOnlyTransactionTakesNoLockAndWaitsForNone() throws {
        try onSimulator(seed: 1) { env in
            let backend = Backend(env: env, faults: Self.faults(.pessimistic))
            let firestore = backend.firestore
            try await firestore.create(Self.a, ["n": 1])
            async let holder: Void = {
                _ = try? await firestore.runTransaction { tx in
                    let n = try await tx.get(Self.a)["n"]?.intValue ?? 0
                    try? await env.clock.sleep(for: .seconds(5))
                    tx.update(Self.a, ["n": .set(.int(n + 1))])
                }
            }()
            try await env.clock.sleep(for: .seconds(1))
            let start = env.clock.now
            let seen = try await firestore.runReadOnlyTransaction { try await $0.get(Self.a)["n"]?.intValue }
            #expect(env.clock.now - start < .seconds(1), "it waited \(env.clock.now - start)")
            #expect(seen == 1)
            await holder
            #expect(await firestore.get(Self.a)["n"]?.intValue == 2)
            await backend.waitUntilIdle()
        }
    }
}
