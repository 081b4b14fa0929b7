import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// The functions host an emulator started with `--functions_emulator 127.0.0.1:PORT` posts trigger
/// events to: an HTTP server on a loopback port (FlyingFox: a small server on Swift concurrency and
/// plain sockets, no SwiftNIO to build) that serves `POST /functions/projects/P/triggers/NAME`,
/// answers 200 `{}` at once and hands each decoded event to `deliveries`. The emulator posts one
/// event at a time and waits for the answer (docs/real-firestore.md), so the host never runs a
/// handler before answering: whoever reads `deliveries` runs them, concurrently if it likes.
/// Real sockets and real time: load mode's side of the seam, never a simulation's.
public final class TriggerHost: Sendable {
    /// `127.0.0.1:PORT`, what the emulator's `--functions_emulator` takes.
    public let address: String
    /// Every event decoded, in the order the emulator posted them.
    public let deliveries: AsyncStream<TriggerDelivery>
    private let server: HTTPServer
    private let running: Task<Void, Never>
    private let endpoint: TriggerEndpoint

    private init(address: String, deliveries: AsyncStream<TriggerDelivery>, server: HTTPServer, running: Task<Void, Never>, endpoint: TriggerEndpoint) {
        self.address = address
        self.deliveries = deliveries
        self.server = server
        self.running = running
        self.endpoint = endpoint
    }

    /// Events received and decoded so far.
    public var received: Int { endpoint.received.load(ordering: .relaxed) }
    /// Posts that were not a trigger event (each answered 400 and counted here).
    public var refused: Int { endpoint.refused.load(ordering: .relaxed) }

    /// Starts a host on a free loopback port (or `port`) for events of `database`. A port in use
    /// is an error naming it.
    public static func start(database: String = "(default)", port: UInt16 = 0) async throws(RESTError) -> TriggerHost {
        let (deliveries, continuation) = AsyncStream<TriggerDelivery>.makeStream()
        // Decoding names documents by project and database only: this client never sends.
        let names = FirestoreRESTClient(baseURL: URL(string: "http://127.0.0.1")!, project: "-", database: database)
        let endpoint = TriggerEndpoint(client: names, continuation: continuation)
        let server: HTTPServer
        do {
            server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled, handler: endpoint)
        } catch {
            throw .badRequest("cannot listen on 127.0.0.1:\(port): \(error)")
        }
        let ended = ServerEnding()
        let running = Task { do { try await server.run() } catch { ended.failure.withLock { $0 = "\(error)" } } }
        // No deadline: binding either happens or fails (a port in use ends the server's task),
        // however busy the machine.
        while true {
            if case .ip4(_, let bound)? = await server.listeningAddress {
                return TriggerHost(address: "127.0.0.1:\(bound)", deliveries: deliveries, server: server, running: running, endpoint: endpoint)
            }
            if let failure = ended.failure.withLock({ $0 }) { throw .badRequest("cannot listen on 127.0.0.1:\(port): \(failure)") }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops listening and ends `deliveries`.
    public func stop() async {
        await server.stop(timeout: 1)
        running.cancel()
        endpoint.continuation.finish()
    }
}

/// The host's one route: a posted event decoded, yielded and answered.
final class TriggerEndpoint: HTTPHandler {
    let client: FirestoreRESTClient
    let continuation: AsyncStream<TriggerDelivery>.Continuation
    let received = Atomic<Int>(0)
    let refused = Atomic<Int>(0)

    init(client: FirestoreRESTClient, continuation: AsyncStream<TriggerDelivery>.Continuation) {
        self.client = client
        self.continuation = continuation
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        guard request.method == .POST, parts.count == 5, parts[0] == "functions", parts[1] == "projects", parts[3] == "triggers" else {
            return HTTPResponse(statusCode: .notFound)
        }
        do {
            let delivery = try TriggerDelivery.decode(try await request.bodyData, project: parts[2], trigger: parts[4], client: client)
            received.add(1, ordering: .relaxed)
            continuation.yield(delivery)
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{}".utf8))
        } catch {
            refused.add(1, ordering: .relaxed)
            return HTTPResponse(statusCode: .badRequest, body: Data("\(error)".utf8))
        }
    }
}

/// The server task's error once it ended (a port in use), as `TriggerHost.start` waits to bind.
final class ServerEnding: Sendable {
    let failure = Mutex<String?>(nil)
}
