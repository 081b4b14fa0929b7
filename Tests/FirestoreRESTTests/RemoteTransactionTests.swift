import FirestoreREST
import RehearsalTestSupport
import SimulatedFirebase
import Synchronization
import Testing

/// A backend on the emulator (`Backend(remote:)`) runs a device's transaction as the client SDK
/// does, optimistically: plain reads, then a commit that requires each written document to be
/// at the version read. A write landing between the read and the commit makes the commit fail
/// and the body run again (a pessimistic transaction would hold a lock and make that write wait).
@Suite(.needsFirestoreEmulator, .tags(.subprocess)) struct RemoteTransactionTests {
    @Test func aDeviceTransactionIsOptimisticAndRetriesAfterAConcurrentWrite() async throws {
        let emulator = try await SharedEmulator.shared.emulator()
        let admin = FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-remote-transaction")
        let remote = RemoteFirestore(admin: admin, serverDescription: "emulator")
        let backend = Backend(env: .realRuntime(seed: 1, epochUnixNanoseconds: 0), faults: .realServer(simulating: .none), remote: remote)
        defer { backend.terminate() }
        backend.setRules(SecurityRules(), source: "rules_version = '2';\nservice cloud.firestore { match /databases/{d}/documents { match /{doc=**} { allow read, write: if request.auth != null; } } }")
        let counter = DocumentPath("counters", "c")
        try await admin.commit([RESTWrite(.set(["n": 1]), at: counter)])
        let device = backend.client(auth: AuthContext(uid: "ann"), label: "ann")
        let runs = Mutex(0)
        try await device.runTransaction { transaction in
            let read = try await transaction.get(counter)
            let run = runs.withLock { runs -> Int in
                runs += 1
                return runs
            }
            if run == 1 { try await admin.commit([RESTWrite(.set(["n": 10]), at: counter)]) }  // lands between read and commit
            transaction.update(counter, ["n": .set(.int((read["n"]?.intValue ?? 0) + 1))])
        }
        #expect(runs.withLock { $0 } == 2)
        #expect(try await admin.get(counter).fields?["n"] == 11)
    }

    /// A function's ordered range query (`fetch(_:whereField:isEqualTo:orderedBy:from:through:)`)
    /// is the server's answer: the equal field, the timestamps in the range, in their order.
    @Test func aFunctionsRangeQueryIsTheServersAnswer() async throws {
        let emulator = try await SharedEmulator.shared.emulator()
        let admin = FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-remote-range")
        let backend = Backend(
            env: .realRuntime(seed: 1, epochUnixNanoseconds: 0), faults: .realServer(simulating: .none),
            remote: RemoteFirestore(admin: admin, serverDescription: "emulator"))
        defer { backend.terminate() }
        func at(_ seconds: Int64) -> Value { .timestamp(Timestamp(unixNanoseconds: 1_800_000_000_000_000_000 + seconds * 1_000_000_000)) }
        try await backend.firestore.commitBatch([
            (DocumentPath("alerts", "late"), .set(["status": "scheduled", "due": at(30)])),
            (DocumentPath("alerts", "early"), .set(["status": "scheduled", "due": at(10)])),
            (DocumentPath("alerts", "sent"), .set(["status": "sent", "due": at(5)])),
            (DocumentPath("alerts", "never"), .set(["status": "scheduled", "due": "tomorrow"])),
            (DocumentPath("alerts", "beyond"), .set(["status": "scheduled", "due": at(90)])),
        ])
        let through = Timestamp(unixNanoseconds: 1_800_000_000_000_000_000 + 60_000_000_000)
        let due = try await backend.firestore.fetch("alerts", whereField: "status", isEqualTo: "scheduled", orderedBy: "due", through: through)
        #expect(due.map(\.id) == ["early", "late"])
        let all = try await backend.firestore.fetch("alerts", orderedBy: "due")
        #expect(all.map(\.id) == ["sent", "early", "late", "beyond"])
    }
}
