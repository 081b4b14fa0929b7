import FirebaseHarness
import FirestoreREST
import Foundation
import Harness
import SimulatedFirebase
import Synchronization

// REAL SOCKETS, PROCESSES AND WALL CLOCK ON PURPOSE: this is load mode's server side (a child
// emulator, a listening port, waits in real time), never part of a simulation.

/// Google's Firestore emulator as the server of a wall-clock load run (`rehearse load …
/// --backend emulator[=HOST:PORT]`): each backend gets a fresh project (triggers can be neither
/// listed nor removed, so runs never share one), its rules and triggers are deployed from the app,
/// and the emulator's trigger events reach the app's functions in this process through a
/// `TriggerHost` (docs/real-firestore.md, "Real mode").
public final class EmulatorLoadServer: FirestoreLoadServer {
    public let name: String
    private let emulator: FirestoreEmulator
    private let host: TriggerHost
    private let owner: FirestoreRESTClient
    private let tag: String
    private let routing: EventRouting
    private let consumer: Task<Void, Never>

    private init(emulator: FirestoreEmulator, host: TriggerHost, started: Bool) {
        self.emulator = emulator
        self.host = host
        self.owner = FirestoreRESTClient(baseURL: emulator.baseURL, project: "rehearsal")
        self.name = "Firestore emulator at \(emulator.address) (\(started ? "started for this run" : "already running"))"
        self.tag = "\(getpid())"
        let routing = EventRouting()
        self.routing = routing
        let deliveries = host.deliveries
        self.consumer = Task { for await delivery in deliveries { routing.route(delivery) } }
    }

    /// Makes `--backend emulator[=HOST:PORT]` available to `rehearse load`.
    public static func register() {
        LoadServers.register("emulator", usage: "emulator[=HOST:PORT]", summary: "Google's Firestore emulator: started for the run, or the one at HOST:PORT") { address, options throws(LoadServerError) in
            try await start(address: address, functionsPort: options["functions-port"])
        }
    }

    /// Starts the trigger host (on `functionsPort`, default a free one) and an emulator posting to
    /// it, or attaches to the emulator at `address` (which must post to `functionsPort`), then
    /// checks that a trigger event makes the trip. Each failure is one line.
    public static func start(address: String?, functionsPort: String?) async throws(LoadServerError) -> EmulatorLoadServer {
        var port: UInt16 = 0
        if let functionsPort {
            guard let parsed = UInt16(functionsPort), parsed > 0 else { throw LoadServerError("--functions-port \(functionsPort): a port from 1 to 65535") }
            port = parsed
        } else if address != nil {
            throw LoadServerError("--backend emulator=\(address ?? ""): an emulator already running needs --functions-port P, the port of its --functions_emulator 127.0.0.1:P")
        }
        let host: TriggerHost
        do { host = try await TriggerHost.start(port: port) } catch { throw LoadServerError("the trigger host: \(error)") }
        let emulator: FirestoreEmulator
        do {
            emulator = if let address { try await FirestoreEmulator.attach(address) } else { try await FirestoreEmulator.start(functionsEmulator: host.address) }
        } catch {
            await host.stop()
            throw LoadServerError("\(error)")
        }
        let server = EmulatorLoadServer(emulator: emulator, host: host, started: address == nil)
        if let problem = await server.probeTriggers() {
            await server.stop()
            throw LoadServerError(problem)
        }
        return server
    }

    public func newProject(for scenario: String) -> any FirestoreRemote {
        let project = "r-\(scenario)-\(tag)-\(routing.nextProjectNumber())"
        return RemoteFirestore(admin: owner.inProject(project), serverDescription: "\(name), project \(project)")
    }

    public func attach(_ backend: Backend) {
        guard let remote = backend.remote as? RemoteFirestore else { return }
        routing.add(project: remote.admin.project, backend: backend, remote: remote)
    }

    /// Registers a trigger in a probe project, writes a document and waits up to 10 s for its event.
    private func probeTriggers() async -> String? {
        let probe = owner.inProject("r-probe-\(tag)")
        do {
            try await probe.register(try EmulatorTrigger(name: "rehearsalProbe", event: .create, document: "rehearsal_probe/{id}"))
            try await probe.commit([RESTWrite(path: DocumentPath("rehearsal_probe", "p"), fields: ["at": .int(1)])])
        } catch {
            return "the emulator at \(emulator.address) refused the trigger probe: \(error)"
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if routing.probed { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return "the emulator at \(emulator.address) did not deliver a trigger event to \(host.address) within 10 s (is it started with --functions_emulator \(host.address)?)"
    }

    public func notes() async -> [String] {
        await drain()
        let projects = routing.projects
        var lines = projects.map { "Firestore: \($0.remote.serverDescription); rules and \($0.triggers) triggers deployed from the app" }
        lines.append("triggers: \(routing.delivered) events delivered by the emulator to the app's functions in this process (\(host.refused) malformed)")
        let tally = routing.tally()
        lines.append("trigger events owed by the run's commits vs received: \(tally.receivedChanges) of \(tally.owedChanges) for created or changed documents"
            + (tally.short.isEmpty ? ", none lost" : ", lost: \(tally.short.joined(separator: ", "))")
            + "; \(tally.receivedDeletes) for the \(tally.owedDeletes) deletes (one each whose document existed)")
        lines.append("FCM, SendGrid and Storage: simulated on the wall clock, with the profile's faults")
        let lost = projects.reduce(0) { $0 + $1.backend.functions.lostEvents.count }
        let backoff = BackendFaults.realServerRetryBackoff, window = BackendFaults.realServerRetryWindow
        lines.append("trigger retries: the emulator never redelivers; the functions here retried each failed retry-enabled event after \(backoff.lowerBound.components.seconds)-\(backoff.upperBound.components.seconds) s of backoff, for up to \(window.components.seconds) s (\(lost) events lost)")
        lines.append("not modelled by the emulator (none of them happens here): duplicate, late and reordered events, cold starts, instance limits, network faults, per-document write-rate limits")
        return lines
    }

    /// Waits until no event arrived for a second (at most 30 s): the emulator delivers one event
    /// at a time, so its queue can trail the run.
    private func drain() async {
        let limit = ContinuousClock.now + .seconds(30)
        var seen = host.received, quietSince = ContinuousClock.now
        while ContinuousClock.now < limit, ContinuousClock.now - quietSince < .seconds(1) {
            try? await Task.sleep(for: .milliseconds(100))
            if host.received != seen { seen = host.received; quietSince = .now }
        }
    }

    public func isAnswering() async -> Bool { await emulator.isAlive() }

    public func problem() async -> String? {
        if !(await emulator.isAlive()) { return "the emulator at \(emulator.address) stopped answering" }
        return routing.projects.flatMap { $0.remote.deploymentProblems }.first
    }

    public func stop() async {
        await host.stop()
        consumer.cancel()
        routing.removeAll()
        emulator.stop()
    }
}

/// Which backend each project's events go to.
final class EventRouting: Sendable {
    struct Project: Sendable {
        let backend: Backend
        let remote: RemoteFirestore
        var triggers: Int { backend.coverage.counts.filter { $0.kind == .trigger }.count }
    }
    private struct State {
        var projects: [String: Project] = [:]
        var order: [String] = []
        var made = 0
        var delivered = 0
        /// Events received per project and trigger: (changes, deletes).
        var received: [String: [String: (changes: Int, deletes: Int)]] = [:]
        var probed = false
    }
    private let state = Mutex(State())

    func nextProjectNumber() -> Int { state.withLock { $0.made += 1; return $0.made } }
    func add(project: String, backend: Backend, remote: RemoteFirestore) {
        state.withLock { state in
            state.projects[project] = Project(backend: backend, remote: remote)
            state.order.append(project)
        }
    }
    var projects: [Project] { state.withLock { state in state.order.compactMap { state.projects[$0] } } }

    /// Events owed by each project's commits against those received, summed over the projects:
    /// changes owed and received, deletes owed (an upper bound) and received, and the triggers
    /// that received fewer change events than they were owed.
    func tally() -> (owedChanges: Int, receivedChanges: Int, owedDeletes: Int, receivedDeletes: Int, short: [String]) {
        state.withLock { state in
            var tally = (owedChanges: 0, receivedChanges: 0, owedDeletes: 0, receivedDeletes: 0, short: [String]())
            for name in state.order {
                guard let project = state.projects[name] else { continue }
                let received = state.received[name] ?? [:]
                for owed in project.remote.owedEvents {
                    let got = received[owed.trigger] ?? (0, 0)
                    tally.owedChanges += owed.changes
                    tally.owedDeletes += owed.deletes
                    tally.receivedChanges += got.changes
                    tally.receivedDeletes += got.deletes
                    if got.changes < owed.changes { tally.short.append("\(owed.trigger) \(got.changes) of \(owed.changes)") }
                }
            }
            return tally
        }
    }
    var delivered: Int { state.withLock { $0.delivered } }
    var probed: Bool { state.withLock { $0.probed } }
    func removeAll() { state.withLock { $0.projects = [:] } }

    /// Hands `delivery` to its project's backend (a probe's event only marks the probe done).
    func route(_ delivery: TriggerDelivery) {
        let backend = state.withLock { state -> Backend? in
            if delivery.trigger == "rehearsalProbe" { state.probed = true; return nil }
            guard let project = state.projects[delivery.project] else { return nil }
            state.delivered += 1
            var counts = state.received[delivery.project, default: [:]][delivery.trigger] ?? (0, 0)
            if delivery.value == nil { counts.deletes += 1 } else { counts.changes += 1 }
            state.received[delivery.project, default: [:]][delivery.trigger] = counts
            return project.backend
        }
        guard let backend else { return }
        let time = delivery.timestamp ?? Timestamp(unixNanoseconds: 0)
        let missing = DocumentSnapshot(path: delivery.path, fields: nil, version: 0, updateTime: time)
        backend.deliverRemoteEvent(
            trigger: delivery.trigger, before: delivery.oldValue.map(RemoteFirestore.snapshot) ?? missing,
            after: delivery.value.map(RemoteFirestore.snapshot) ?? missing)
    }
}
