import Domain
import SimulatedFirebase
import Synchronization
import Testing

final class Counter: Sendable {
    let value = Mutex(0)
    @discardableResult func next() -> Int { value.withLock { $0 += 1; return $0 } }
    var count: Int { value.withLock { $0 } }
}

struct BidTooLow: Error {}

@Suite struct TransactionTests {
    let doc = DocumentPath("honors", "h1")

    /// The emulator answers a commit whose writes fail several preconditions with the first in
    /// the request's order, not in path order (the order documents are locked in).
    @Test func aCommitFailingSeveralPreconditionsReportsTheFirstInRequestOrder() async throws {
        let backend = makeBackend()
        let exists = DocumentPath("c", "a"), missing = DocumentPath("c", "b")
        try await backend.firestore.create(exists, ["n": 1])
        let updateFirst = await backendError {
            try await backend.firestore.commitBatch([(missing, .update(["n": .set(2)])), (exists, .create(["n": 2]))])
        }
        #expect(updateFirst == .notFound(missing))
        let createFirst = await backendError {
            try await backend.firestore.commitBatch([(exists, .create(["n": 2])), (missing, .update(["n": .set(2)]))])
        }
        #expect(createFirst == .alreadyExists(exists))
        let inATransaction = await backendError {
            try await backend.firestore.runTransaction { tx in
                _ = try await tx.get(exists)
                tx.update(missing, ["n": .set(3)])
                tx.create(exists, ["n": 3])
            }
        }
        #expect(inATransaction == .notFound(missing), "the read does not put c/a first: its write came second")
    }

    @Test func conflictingWriteMakesTheBodyRunAgain() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(doc, ["n": 0])
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let attempts = Counter()
        try await client.runTransaction { tx in
            let snapshot = try await tx.get(doc)
            if attempts.next() == 1 { try await backend.firestore.update(doc, ["n": .increment(10)]) }
            tx.update(doc, ["n": .set(.int(snapshot["n"]!.intValue! + 1))])
        }
        #expect(attempts.count == 2)
        #expect(await backend.firestore.get(doc)["n"] == 11)  // the concurrent increment is not lost
    }

    @Test func alwaysConflictingTransactionAbortsAfterFiveAttemptsWithBackoff() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(doc, ["n": 0])
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let attempts = Counter()
        let start = backend.env.clock.now
        let error = await backendError {
            try await client.runTransaction { tx in
                _ = try await tx.get(doc)
                attempts.next()
                try await backend.firestore.update(doc, ["n": .increment(1)])
                tx.update(doc, ["n": .set(-1)])
            }
        }
        #expect(error == .aborted(.contention))
        #expect(attempts.count == 5)
        let waited = backend.env.clock.now - start  // 1 + 1.5 + 2.25 + 3.375 s, each ±50 %
        #expect(waited >= .seconds(4) && waited <= .seconds(13))
    }

    @Test func appErrorsAndPermissionDeniedAreNotRetried() async throws {
        var rules = SecurityRules()
        rules.match("honors") { $0.operation == .get }
        let backend = makeBackend(rules: rules)
        try await backend.firestore.create(doc, ["n": 0])
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let attempts = Counter()
        await #expect(throws: BidTooLow.self) {
            try await client.runTransaction { tx in
                _ = try await tx.get(doc); attempts.next(); throw BidTooLow()
            }
        }
        let denied = await backendError {
            try await client.runTransaction { tx in
                _ = try await tx.get(doc); attempts.next(); tx.update(doc, ["n": .set(1)])
            }
        }
        #expect(denied == .permissionDenied(operation: "update", path: "honors/h1"))
        #expect(attempts.count == 2)
    }

    @Test func transactionFailsWhenOffline() async {
        let backend = makeBackend()
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        client.network.setOnline(false)
        let error = await backendError { try await client.runTransaction { tx in _ = try await tx.get(doc) } }
        #expect(error?.code == "UNAVAILABLE")
    }

    @Test func writeRateAboveSustainedLimitAbortsAndRetries() async throws {
        var faults = BackendFaults.none
        faults.documentBurstWrites = 1
        faults.abortProbabilityPerExcessWrite = 1
        faults.abortProbabilityMax = 1
        let backend = makeBackend(faults: faults)
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let attempts = Counter()
        for _ in 0..<2 {
            try await client.runTransaction { tx in
                attempts.next()
                _ = try await tx.get(doc)
                tx.merge(doc, ["n": .increment(1)])
            }
        }
        #expect(attempts.count == 3)  // the second commit in the same instant aborted once
        #expect(await backend.firestore.get(doc)["n"] == 2)
    }

    @Test func concurrentTransactionsAcrossDocumentsStayAtomic() async throws {
        let backend = makeBackend()
        let a = DocumentPath("accounts", "a"), b = DocumentPath("accounts", "b")
        try await backend.firestore.create(a, ["balance": 100])
        try await backend.firestore.create(b, ["balance": 100])
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let client = backend.client(auth: AuthContext(uid: "u\(i)"), label: "u\(i)")
                    _ = try? await client.runTransaction { tx in
                        let from = try await tx.get(i % 2 == 0 ? a : b), to = try await tx.get(i % 2 == 0 ? b : a)
                        tx.update(from.path, ["balance": .set(.int(from["balance"]!.intValue! - 10))])
                        tx.update(to.path, ["balance": .set(.int(to["balance"]!.intValue! + 10))])
                    }
                }
            }
        }
        let total = await backend.firestore.get(a)["balance"]!.intValue! + backend.firestore.get(b)["balance"]!.intValue!
        #expect(total == 200)
    }

    /// Past 8 documents the transaction indexes its paths: reads, re-reads, several writes to one
    /// document and the commit-time version check must behave as with a few.
    @Test(arguments: [3, 8, 9, 12, 40])
    func manyDocumentsCommitTogetherAndConflictsAreSeen(count: Int) async throws {
        let backend = makeBackend()
        let paths = (0..<count).map { DocumentPath("items", "i\($0)") }
        for path in paths { try await backend.firestore.create(path, ["n": 0]) }
        let attempts = Counter()
        try await backend.firestore.runTransaction { tx in
            var total: Int64 = 0
            for path in paths { total += try await tx.get(path)["n"]!.intValue! }
            for path in paths.reversed() { _ = try await tx.get(path) }  // re-reads see the same version
            if attempts.next() == 1 { try await backend.firestore.update(paths[count - 1], ["n": .increment(5)]) }
            for (offset, path) in paths.enumerated() {
                tx.update(path, ["n": .increment(Value.int(Int64(offset)))])
                tx.update(path, ["m": .set(.int(total))])
            }
        }
        #expect(attempts.count == 2, "the concurrent change to the last document read forces a second attempt")
        for (offset, path) in paths.enumerated() {
            let fields = await backend.firestore.get(path)
            #expect(fields["n"] == .int(Int64(offset + (offset == count - 1 ? 5 : 0))))
            #expect(fields["m"] == 5)
        }
    }
}

/// The admin SDK answers a failed precondition at once (nodejs-firestore retries contention and
/// transient errors only), and a batch is one attempt; the client SDK retries a failed precondition
/// and, out of attempts, answers with the last error (found by the differential oracle).
@Suite struct TransactionPreconditionTests {
    let doc = DocumentPath("seats", "a1")

    @Test func aServerTransactionAnswersAFailedCreateAsAlreadyExists() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(doc, ["by": "u1"])
        let attempts = Counter()
        let error = await backendError {
            try await backend.firestore.runTransaction { tx in
                attempts.next()
                tx.create(doc, ["by": "u2"])
            }
        }
        #expect(error == .alreadyExists(doc))
        #expect(attempts.count == 1, "a failed precondition is an answer, not contention")
    }

    @Test func aBatchIsOneAttemptAndAtomic() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(doc, ["by": "u1"])
        let other = DocumentPath("seats", "a2")
        let error = await backendError {
            try await backend.firestore.commitBatch([(other, .set(["by": "u2"])), (doc, .create(["by": "u2"]))])
        }
        #expect(error == .alreadyExists(doc))
        #expect(await backend.firestore.get(other).exists == false, "no write of a failed batch lands")
    }

    @Test func aClientTransactionOutOfAttemptsAnswersWithTheLastError() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(doc, ["by": "u1"])
        let client = backend.client(auth: AuthContext(uid: "u2"), label: "u2")
        let attempts = Counter()
        let error = await backendError {
            try await client.runTransaction { tx in
                attempts.next()
                tx.create(doc, ["by": "u2"])
            }
        }
        #expect(attempts.count == 5, "the client SDK retries ALREADY_EXISTS")
        #expect(error == .alreadyExists(doc))
    }
}
