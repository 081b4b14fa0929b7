import Domain
import Sim
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, documents' limits (MODEL_RULES §6, §22, §25; docs/domain.md "Write rate",
/// "Document size", "Admin calls fail"): a document's size as Firestore counts it, the 1 MiB limit,
/// the sustained write rate for plain writes, and admin answers lost after the write landed.
@Suite struct ConformanceLimitsTests {
    /// Firestore's storage-size page works one example through: `users/jeff/tasks/my_task_id`
    /// with four fields is 147 bytes (name 44, fields 71, document 32).
    @Test func documentSizeIsCountedAsFirestoreCountsIt() {
        let path = DocumentPath("users/jeff/tasks", "my_task_id")
        let fields: Fields = ["type": "Personal", "done": false, "priority": 1, "description": "Learn Cloud Firestore"]
        #expect(DocumentSize.name(path) == 44)
        #expect(DocumentSize.of(fields, at: path) == 147)
        #expect(DocumentSize.of(.array([.int(1), .null, .map(["a": .timestamp(Timestamp(unixNanoseconds: 0))])])) == 8 + 1 + 2 + 8)
    }

    /// A write that would take a document past 1 MiB fails INVALID_ARGUMENT, for the admin SDK, a
    /// device and a transaction alike, and leaves the document as it was; one just under passes.
    @Test func aWritePastOneMebibyteFailsAndChangesNothing() async throws {
        let backend = makeBackend()
        let doc = DocumentPath("docs", "d")
        let limit = BackendFaults.default.documentMaxBytes
        let overhead = DocumentSize.of(["blob": ""], at: doc)
        try await backend.firestore.set(doc, ["blob": .string(String(repeating: "x", count: limit - overhead))])
        #expect(DocumentSize.of(try #require(await backend.firestore.get(doc).fields), at: doc) == limit)
        let grow: FieldUpdates = ["more": .set(true)]
        let admin = await backendError { try await backend.firestore.update(doc, grow) }
        #expect(admin?.code == "INVALID_ARGUMENT", "\(String(describing: admin))")
        let client = backend.client(auth: AuthContext(uid: "u", email: "u@x"), label: "device")
        let device = await backendError { try await client.updateData(doc, grow) }
        #expect(device?.code == "INVALID_ARGUMENT")
        let transaction = await backendError { try await backend.firestore.runTransaction { tx in tx.update(doc, grow) } }
        #expect(transaction?.code == "INVALID_ARGUMENT")
        #expect(await backend.firestore.get(doc)["more"] == nil && backend.faultLedger.tallies[.documentTooLarge]?.observed == 3)
    }

    /// Plain writes to one document, 4 a second for 60 s, after its burst: admin writes queue
    /// (`write-rate-delay`) and some abort ABORTED at the transactions' probability, observed
    /// within 4σ of what the ledger expected; a device's writes queue and never abort. Both commit
    /// about the sustained rate. At 1 a second nothing queues or aborts.
    @Test(arguments: [(4.0, true), (1.0, false)])
    func plainWritesAboveTheRateQueueAndAdminWritesAbort(perSecond: Double, above: Bool) throws {
        let outcome = try onSimulator(seed: 61) { env -> (adminCommitted: Int, deviceCommitted: Int, delays: Int, aborts: FaultLedger.Tally) in
            var faults = BackendFaults.none
            faults.abortProbabilityPerExcessWrite = BackendFaults.default.abortProbabilityPerExcessWrite
            faults.documentWriteQueueMax = BackendFaults.default.documentWriteQueueMax
            let backend = Backend(env: env, faults: faults)
            backend.setRules(.allowAll)
            let client = backend.client(auth: AuthContext(uid: "u", email: "u@x"), label: "device")
            let admin = DocumentPath("docs", "admin"), device = DocumentPath("docs", "device")
            let gap = Duration.seconds(1 / perSecond)
            async let adminCommitted: Int = {
                var committed = 0
                for i in 0..<Int(60 * perSecond) {
                    if (try? await backend.firestore.set(admin, ["n": .int(Int64(i))])) != nil { committed += 1 }
                    try? await env.clock.sleep(for: gap)
                }
                return committed
            }()
            async let deviceCommitted: Int = {
                var committed = 0
                await withTaskGroup(of: Bool.self) { group in
                    for i in 0..<Int(60 * perSecond) {
                        group.addTask {
                            try? await env.clock.sleep(for: gap * Double(i))
                            return (try? await client.setData(device, ["n": .int(Int64(i))])) != nil
                        }
                    }
                    for await ok in group where ok { committed += 1 }
                }
                return committed
            }()
            let committed = (await adminCommitted, await deviceCommitted)
            let tallies = backend.faultLedger.tallies
            return (committed.0, committed.1, tallies[.writeRateDelay]?.observed ?? 0, tallies[.contentionAbort] ?? .init())
        }
        let writes = Int(60 * perSecond)
        #expect(outcome.deviceCommitted == writes, "a device's plain write is late, never refused")
        if above {
            #expect(outcome.delays > writes, "\(outcome.delays) writes queued")
            #expect(outcome.aborts.observed > 0 && outcome.adminCommitted == writes - outcome.aborts.observed)
            let expected = Double(outcome.aborts.expectedBillionths) / 1e9, sigma = (Double(outcome.aborts.varianceBillionths) / 1e9).squareRoot()
            #expect(abs(Double(outcome.aborts.observed) - expected) <= 4 * sigma + 1, "\(outcome.aborts.observed) aborts, expected \(expected) ± \(4 * sigma)")
        } else {
            #expect(outcome.delays == 0 && outcome.aborts.observed == 0 && outcome.adminCommitted == writes)
        }
    }

    /// 4,000 admin writes inside a function at 5 %: answers lost in the band of 5 %, each write
    /// landed all the same and its caller waited 10 s for DEADLINE_EXCEEDED; outside a function
    /// (set-up, checkers) no answer is ever lost.
    @Test func adminAnswersAreLostAtTheirRateAfterTheWriteLanded() async throws {
        var faults = BackendFaults.none
        faults.adminAnswerLostProbability = 0.05
        let backend = makeBackend(seed: 62, faults: faults)
        let outcomes = Mutex<(lost: Int, slow: Int)>((0, 0))
        backend.functions.callable("write") { request in
            let i = request.data["i"]?.intValue ?? -1
            let before = backend.env.clock.nowUnixNanoseconds
            do {
                try await backend.firestore.set(DocumentPath("docs", "d\(i)"), ["i": .int(i)])
            } catch BackendError.deadlineExceeded {
                let waited = backend.env.clock.nowUnixNanoseconds - before
                outcomes.withLock { $0.lost += 1; if waited >= 10_000_000_000 { $0.slow += 1 } }
            }
            return .null
        }
        let calls = 4_000
        for i in 0..<calls { _ = try await backend.functions.invoke("write", data: ["i": .int(Int64(i))], auth: nil) }
        for i in 0..<200 { try await backend.firestore.set(DocumentPath("setup", "s\(i)"), ["i": .int(Int64(i))]) }
        let (lost, slow) = outcomes.withLock { $0 }
        #expect(BinomialBound.contains(observed: lost, trials: calls, probability: 0.05), "\(lost) lost, want \(BinomialBound.band(trials: calls, probability: 0.05))")
        #expect(slow == lost, "every lost answer costs its 10 s wait")
        #expect(backend.firestore.query("docs").count == calls, "every write landed")
        let tally = backend.faultLedger.tallies[.adminAnswerLost]
        #expect(tally?.opportunities == calls && tally?.observed == lost, "set-up writes are no chance")
    }

    /// A query from a function (`fetch`) takes an admin round trip and answers what the index holds
    /// when the answer leaves: a device's write that lands meanwhile is in it. `query` (checkers,
    /// set-up, the client SDK) answers at once.
    @Test func aFunctionsQueryTakesAnAdminRoundTrip() throws {
        let outcome = try onSimulator(seed: 63) { env -> (took: Duration, fetched: Int, queriedAtOnce: Int) in
            var faults = BackendFaults.none
            faults.adminOperationLatency = LatencyModel(median: .milliseconds(50), tailProbability: 1, tailMax: .milliseconds(101))
            let backend = Backend(env: env, faults: faults)
            backend.setRules(.allowAll)
            let device = backend.client(auth: AuthContext(uid: "u", email: "u@x"), label: "device")
            try await device.setData(DocumentPath("docs", "a"), ["n": 1])
            let start = env.clock.now
            async let fetched = backend.firestore.fetch("docs")
            try? await env.clock.sleep(for: .milliseconds(50))
            try await device.setData(DocumentPath("docs", "b"), ["n": 2])
            let queriedAtOnce = backend.firestore.query("docs").count
            let answer = await fetched
            return (env.clock.now - start, answer.count, queriedAtOnce)
        }
        #expect(outcome.took >= .milliseconds(100) && outcome.took <= .milliseconds(102), "\(outcome.took)")
        #expect(outcome.fetched == 2, "the write 50 ms into the round trip is in the answer")
        #expect(outcome.queriedAtOnce == 2)
    }
}
