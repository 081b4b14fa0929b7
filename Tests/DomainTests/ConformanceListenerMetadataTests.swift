@testable import Domain
@testable import SimulatedFirebase
import Synchronization
import Testing

/// A device listener as the SDKs run one (MODEL_RULES §19): the device's own writes show at once
/// with `hasPendingWrites`, settle when the server answers, and go back when it refuses them; a
/// dropped connection shows `isFromCache` until the resync.
@Suite struct ConformanceListenerMetadataTests {
    /// What a handler heard, in order.
    final class Heard: Sendable {
        private let state = Mutex<[ListenerSnapshot]>([])
        func append(_ snapshot: ListenerSnapshot) { state.withLock { $0.append(snapshot) } }
        func append(_ changes: [DocumentChange]) { append(ListenerSnapshot(changes: changes, metadata: SnapshotMetadata(isFromCache: false, hasPendingWrites: false))) }
        var snapshots: [ListenerSnapshot] { state.withLock { $0 } }
    }

    /// The order calls were answered in.
    final class Answers: Sendable {
        private let state = Mutex<[String]>([])
        func append(_ id: String) { state.withLock { $0.append(id) } }
        var first: String? { state.withLock { $0.first } }
    }

    private static let path = DocumentPath("notes", "n1")

    private static func metadata(cache: Bool = false, pending: Bool = false) -> SnapshotMetadata {
        SnapshotMetadata(isFromCache: cache, hasPendingWrites: pending)
    }

    @Test func aDevicesWriteShowsAtOnceThenSettlesWithTheCommitTime() async throws {
        let backend = makeBackend()
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let heard = Heard()
        let listener = client.listen("notes", includeMetadataChanges: true) { heard.append($0) }
        await backend.waitUntilIdle()
        #expect(heard.snapshots == [ListenerSnapshot(changes: [], metadata: Self.metadata())], "the first snapshot, empty, is raised")
        try await client.setData(Self.path, merging: ["text": .set("hi"), "at": .serverTimestamp])
        await backend.waitUntilIdle()
        let snapshots = heard.snapshots
        try #require(snapshots.count == 3, "the echo, then the acknowledgement; the server's own copy is not raised again: \(snapshots)")
        #expect(snapshots[1].metadata == Self.metadata(pending: true))
        #expect(snapshots[1].changes.map(\.kind) == [.create])
        #expect(snapshots[1].changes.first?.after["at"] == .null, "a server timestamp reads null until the server answers")
        #expect(snapshots[2].metadata == Self.metadata())
        let stored = await backend.firestore.snapshot(Self.path)
        #expect(snapshots[2].changes.first?.after["at"] == stored["at"] && stored["at"]?.timestampValue != nil)
        listener.remove()
    }

    @Test func aWriteTheServerRefusesIsRolledBack() async throws {
        var rules = SecurityRules()
        rules.match("notes") { $0.operation == .get || $0.operation == .list }
        let backend = makeBackend(rules: rules)
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let heard = Heard()
        let listener = client.listen("notes") { heard.append($0) }
        let error = await backendError { try await client.setData(Self.path, ["text": "hi"]) }
        #expect(error?.code == "PERMISSION_DENIED")
        await backend.waitUntilIdle()
        #expect(heard.snapshots.map { $0.changes.map(\.kind) } == [[.create], [.delete]], "shown at once, then taken back")
        #expect(backend.faultLedger.tallies[.localWriteRollback]?.observed == 1)
        #expect(await !backend.firestore.snapshot(Self.path).exists)
        listener.remove()
    }

    /// Two writes of one device in flight at once, one refused and one saved, answered in either
    /// order (50 seeds on the simulator): each answer settles its own write, so what the handler
    /// ends up showing is the server's state and nothing stays pending.
    @Test func twoWritesInFlightAreSettledEachByItsOwnAnswer() throws {
        var orders: Set<Bool> = []
        for seed: UInt64 in 1...50 {
            let outcome = try onSimulator(seed: seed) { env in
                let backend = Backend(env: env, faults: .none)
                var rules = SecurityRules()
                rules.match("notes") { $0.operation == .get || $0.operation == .list || $0.path.id == "n2" }
                backend.setRules(rules)
                let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
                let heard = Heard()
                let listener = client.listen("notes", includeMetadataChanges: true) { heard.append($0) }
                await backend.waitUntilIdle()
                let answers = Answers()
                await withTaskGroup(of: Void.self) { group in
                    for id in ["n1", "n2"] {
                        group.addTask {
                            _ = try? await client.setData(DocumentPath("notes", id), ["text": .string(id)])
                            answers.append(id)
                        }
                    }
                }
                await backend.waitUntilIdle()
                listener.remove()
                var shown: [String: Bool] = [:]
                for change in heard.snapshots.flatMap(\.changes) { shown[change.path.id] = change.after.exists }
                let stored = await (backend.firestore.snapshot(DocumentPath("notes", "n1")).exists, backend.firestore.snapshot(DocumentPath("notes", "n2")).exists)
                return (shown: shown, stored: [stored.0, stored.1], pending: heard.snapshots.last?.metadata.hasPendingWrites,
                        refusedFirst: answers.first == "n1")
            }
            orders.insert(outcome.refusedFirst)
            #expect(outcome.stored == [false, true], "seed \(seed)")
            #expect(outcome.shown == ["n1": false, "n2": true], "seed \(seed): what the handler was last told of each note")
            #expect(outcome.pending == false, "seed \(seed)")
        }
        #expect(orders == [false, true], "both answer orders happen over the seeds")
    }

    @Test func aWriteWhoseAnswerIsLostStaysShownAsTheServersCopy() async throws {
        var faults = BackendFaults.none
        faults.networkTimeoutProbability = 1
        let backend = makeBackend(faults: faults)
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let heard = Heard()
        let listener = client.listen("notes", includeMetadataChanges: true) { heard.append($0) }
        await backend.waitUntilIdle()
        let error = await backendError { try await client.setData(Self.path, ["text": "hi"]) }
        #expect(error?.code == "DEADLINE_EXCEEDED")
        await backend.waitUntilIdle()
        // The server's copy reached the listener during the call's 10 s: when the call gives up,
        // taking the write back changes nothing shown, only the metadata.
        let kinds = heard.snapshots.map { $0.changes.map(\.kind) }
        #expect(kinds == [[], [.create], []], "\(kinds)")
        #expect(heard.snapshots.map(\.metadata.hasPendingWrites) == [false, true, false])
        #expect(backend.faultLedger.tallies[.localWriteRollback] == nil, "nothing shown was taken back")
        #expect(await backend.firestore.snapshot(Self.path).exists)
        listener.remove()
    }

    @Test func aDroppedConnectionShowsTheDevicesCopyUntilTheResync() async throws {
        var faults = BackendFaults.none
        faults.listenerDisconnectProbability = 1
        let backend = makeBackend(faults: faults)
        try await backend.firestore.create(Self.path, ["text": "stored"])
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let heard = Heard()
        let listener = client.listen(document: Self.path, includeMetadataChanges: true) { heard.append($0) }
        await backend.waitUntilIdle()
        let snapshots = heard.snapshots
        try #require(snapshots.count >= 2, "\(snapshots)")
        #expect(snapshots[0] == ListenerSnapshot(changes: [], metadata: Self.metadata(cache: true)),
                "offline from the start: the device's copy, which does not hold the document")
        #expect(snapshots[1].metadata == Self.metadata() && snapshots[1].changes.first?.after["text"] == "stored")
        // Every round drops the connection: later rounds change the metadata only, there and back.
        #expect(snapshots.dropFirst(2).allSatisfy { $0.changes.isEmpty })
        #expect(snapshots.last?.metadata == Self.metadata())
        #expect(backend.faultLedger.tallies[.listenerDisconnect]?.observed == snapshots.count / 2)
        listener.remove()
    }

    @Test func aListenerWithoutMetadataHearsEachChangeOnce() async throws {
        let backend = makeBackend()
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let other = backend.client(auth: AuthContext(uid: "o"), label: "o")
        let heard = Heard()
        let listener = client.listen("notes") { heard.append($0) }
        try await client.setData(Self.path, ["text": "mine"])
        try await other.setData(Self.path, merging: ["seen": .set(true)])
        await backend.waitUntilIdle()
        let changes = heard.snapshots.flatMap(\.changes)
        #expect(changes.map(\.kind) == [.create, .update], "\(changes)")
        #expect(changes.last?.after.fields == ["text": "mine", "seen": true])
        #expect(changes.last?.before.fields == ["text": "mine"], "a change starts from what the device showed")
        listener.remove()
    }

    /// A handler that writes what it listens to (a device marking what it received) hears its own
    /// write after the snapshot it is handling, never waiting for itself. Run on the simulator over
    /// many seeds: a handler waiting for itself ends a run as a deadlock (no real-time limit).
    @Test func aHandlerThatWritesWhatItListensToHearsItsWriteNext() throws {
        for seed: UInt64 in 1...50 {
            let outcome = try onSimulator(seed: seed) { env in
                let backend = Backend(env: env, faults: .none)
                backend.setRules(.allowAll)
                let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
                let other = backend.client(auth: AuthContext(uid: "o"), label: "o")
                let heard = Heard()
                let listener = client.listen("notes") { changes in
                    heard.append(changes)
                    for change in changes where change.after["seen"] == nil && change.after.exists {
                        _ = try? await client.updateData(change.path, ["seen": .set(true)])
                    }
                }
                try await other.setData(Self.path, ["text": "hi"])
                await backend.waitUntilIdle()
                listener.remove()
                return (changes: heard.snapshots.flatMap(\.changes), stored: await backend.firestore.snapshot(Self.path)["seen"])
            }
            #expect(outcome.changes.map(\.kind) == [.create, .update], "seed \(seed): \(outcome.changes)")
            #expect(outcome.changes.last?.after.fields == ["text": "hi", "seen": true], "seed \(seed)")
            #expect(outcome.stored == true, "seed \(seed)")
        }
    }
}
