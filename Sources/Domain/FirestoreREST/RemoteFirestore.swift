import Foundation
import SimulatedFirebase
import Synchronization

/// `FirestoreRemote` over Firestore's REST API: one project of a server (the emulator, or a real
/// project with an access token), each request speaking for its caller (the admin as the owner or
/// the token, a device as its user), each REST failure mapped to the `BackendError` the SDKs
/// raise. Rules and triggers the app deploys are sent before the next request.
public final class RemoteFirestore: FirestoreRemote {
    /// The server and project, for reports.
    public let serverDescription: String
    /// The project's owner (admin SDK) client.
    public let admin: FirestoreRESTClient
    /// An emulator: triggers are registered with it, rules loaded into it, and a device speaks as
    /// its user (an unsigned ID token). A real project: none of it (its functions and rules are
    /// deployed by its team; no ID token can be minted here), every request speaks as the admin.
    private let emulator: Bool
    private let users = Mutex<[String: FirestoreRESTClient]>([:])
    private let pending = Mutex<[Task<String?, Never>]>([])
    private let problems = Mutex<[String]>([])
    /// The trigger events the committed writes owe.
    private let expectation = TriggerExpectation()

    /// A project on the server `admin` speaks to, as its owner (`emulator`: false for a real
    /// project, see `emulator`).
    public init(admin: FirestoreRESTClient, serverDescription: String, emulator: Bool = true) {
        self.admin = admin
        self.serverDescription = serverDescription
        self.emulator = emulator
    }

    /// Deployments that failed (rules refused, a trigger the server would not register), one line each.
    public var deploymentProblems: [String] { problems.withLock { $0 } }

    /// The client speaking for `caller`.
    func client(_ caller: RemoteCaller) -> FirestoreRESTClient {
        guard emulator else { return admin }
        switch caller {
        case .admin: return admin
        case .signedOut: return admin.speaking(for: .anonymous)
        case .user(let auth):
            return users.withLock { users in
                if let known = users[auth.uid] { return known }
                let made = admin.speaking(for: .user(uid: auth.uid, email: auth.email))
                users[auth.uid] = made
                return made
            }
        }
    }

    /// Waits for the deployments queued so far; a failed one fails every request after it.
    private func settle() async throws(BackendError) {
        let tasks = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for task in tasks {
            if let problem = await task.value { problems.withLock { $0.append(problem) } }
        }
        if let first = problems.withLock({ $0.first }) { throw .failedPrecondition("deploying to \(serverDescription) failed: \(first)") }
    }

    private func deploy(_ step: @escaping @Sendable () async -> String?) {
        pending.withLock { $0.append(Task { await step() }) }
    }

    public func deployRules(_ source: String?) {
        guard emulator else { return }
        guard let source else {
            problems.withLock { $0.append("rules: this design's Swift rules have no rules file to deploy") }
            return
        }
        let admin = admin
        deploy {
            do { try await admin.loadRules(source); return nil } catch { return "rules: \(error)" }
        }
    }

    public func deployTrigger(name: String, collection: String, kinds: Set<TriggerKind>) {
        guard emulator else { return }
        let admin = admin
        // Every change of the collection, whatever the handler's kinds (they filter what it runs
        // for, `TriggerDispatcher.deliverRemote`), so the events owed can be counted exactly.
        let event = EmulatorTrigger.Event.write
        expectation.deploy(name, collection: collection)
        deploy {
            do {
                try await admin.register(try EmulatorTrigger(name: name, event: event, document: "\(collection)/{__rehearsalDocument}"))
                return nil
            } catch {
                return "trigger \(name): \(error)"
            }
        }
    }

    public func get(_ path: DocumentPath, as caller: RemoteCaller, transaction: String?) async throws(BackendError) -> DocumentSnapshot {
        try await settle()
        do {
            return Self.snapshot(try await client(caller).get(path, transaction: transaction))
        } catch {
            throw Self.backendError(error, path: path, operation: "get")
        }
    }

    public func commit(
        _ writes: [(DocumentPath, WriteOperation)], as caller: RemoteCaller, transaction: String?, expecting: [DocumentPath: UInt64]
    ) async throws(BackendError) {
        try await settle()
        var expected = expecting
        let requests = writes.map { path, operation in
            var write = RESTWrite(operation, at: path)
            // The first write of a document read by an optimistic transaction carries the version read.
            if let version = expected.removeValue(forKey: path) {
                write.precondition = version == 0 ? .exists(false) : .updateTime(Timestamp(unixNanoseconds: Int64(version)))
            }
            return write
        }
        do {
            let answer = try await client(caller).commitAnswer(requests, transaction: transaction)
            expectation.record(
                writes.map(\.0), deletes: writes.map { if case .delete = $0.1 { true } else { false } },
                commitTime: answer.commitTime, updateTimes: answer.updateTimes)
        } catch {
            throw Self.backendError(error, path: writes.first?.0, operation: "write")
        }
    }

    /// The trigger events the run's commits owe each deployed trigger, by trigger name.
    public var owedEvents: [(trigger: String, changes: Int, deletes: Int)] {
        expectation.owed.sorted { $0.key < $1.key }.map { ($0.key, $0.value.changes, $0.value.deletes) }
    }

    public func query(_ query: Query, as caller: RemoteCaller) async throws(BackendError) -> [DocumentSnapshot] {
        try await settle()
        do {
            return try await client(caller).runQuery(query).map(Self.snapshot)
        } catch {
            throw Self.backendError(error, path: nil, operation: "list", collection: query.collection)
        }
    }

    public func beginTransaction(as caller: RemoteCaller) async throws(BackendError) -> String {
        try await settle()
        do {
            return try await client(caller).beginTransaction()
        } catch {
            throw Self.backendError(error, path: nil, operation: "beginTransaction")
        }
    }

    public func rollback(_ transaction: String, as caller: RemoteCaller) async {
        try? await client(caller).rollback(transaction)
    }

    /// A REST document as the simulated Firebase's snapshot: its version is its update time in
    /// nanoseconds (what a transaction compares), 0 when missing.
    public static func snapshot(_ document: RESTDocument) -> DocumentSnapshot {
        let time = document.updateTime ?? Timestamp(unixNanoseconds: 0)
        return DocumentSnapshot(
            path: document.path, fields: document.fields, version: document.fields == nil ? 0 : UInt64(max(0, time.unixNanoseconds)),
            updateTime: time)
    }

    /// The error the SDKs raise for a REST failure.
    static func backendError(_ error: RESTError, path: DocumentPath?, operation: String, collection: String? = nil) -> BackendError {
        let message = error.description
        switch error.code {
        case "ABORTED": return .aborted(.conflict(message))
        case "ALREADY_EXISTS": return path.map { .alreadyExists($0) } ?? .failedPrecondition(message)
        case "NOT_FOUND": return path.map { .notFound($0) } ?? .failedPrecondition(message)
        case "FAILED_PRECONDITION": return .failedPrecondition(message)
        case "PERMISSION_DENIED": return .permissionDenied(operation: operation, path: path?.description ?? collection ?? "")
        case "UNAUTHENTICATED": return .unauthenticated(message)
        case "UNAVAILABLE": return .unavailable(message)
        case "DEADLINE_EXCEEDED": return .deadlineExceeded(message)
        case "INVALID_ARGUMENT": return .invalidArgument(message)
        case "RESOURCE_EXHAUSTED": return .resourceExhausted(message)
        default: return .internal(message)
        }
    }
}
