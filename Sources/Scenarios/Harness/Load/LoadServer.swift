import Synchronization

/// A real server a wall-clock load run drives instead of a profile's simulated backend
/// (`rehearse load … --backend NAME`): the server's own latency, contention and clock.
public protocol LoadServer: Sendable {
    /// How reports name it: `Firestore emulator at 127.0.0.1:8080 (started for this run)`.
    var name: String { get }
    /// Lines for the report once the run ended: which services were real and which stayed
    /// simulated, what the server does not model, and what it observed (events delivered).
    func notes() async -> [String]
    /// A problem that stops the run's result from counting (the server died, a deployment
    /// failed), nil when there is none.
    func problem() async -> String?
    /// Stops what the server's start began (a child process, a listening port).
    func stop() async
    /// Whether the server still answers; polled while the load runs, so a server that died stops
    /// the run early (`FailureKind.server`).
    func isAnswering() async -> Bool
}

extension LoadServer {
    /// A server nobody can watch is taken to answer; its failed requests still count.
    public func isAnswering() async -> Bool { true }
}

/// Why a real server could not be started or used: one line, before any load starts.
public struct LoadServerError: Error, Sendable, CustomStringConvertible {
    /// The line.
    public let description: String
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
}

/// The real servers `--backend NAME[=ADDRESS]` can name, registered by the program that ships
/// them (the built-in `rehearse` registers `emulator`).
public enum LoadServers {
    /// Starts a server; `address` is what followed `=` (nil: start one of its own).
    public typealias Starter = @Sendable (_ address: String?, _ options: [String: String]) async throws(LoadServerError) -> any LoadServer
    private static let registry = Mutex<[(name: String, usage: String, summary: String, start: Starter)]>([])

    /// Makes `--backend name` start servers with `start`; `usage` is how it is written
    /// (`emulator[=HOST:PORT]`), `summary` its help line.
    public static func register(_ name: String, usage: String? = nil, summary: String, start: @escaping Starter) {
        registry.withLock { registry in
            registry.removeAll { $0.name == name }
            registry.append((name, usage ?? name, summary, start))
        }
    }

    /// How each registered server is written, in registration order.
    package static var usages: [String] { registry.withLock { $0.map(\.usage) } }

    /// The starter of `name`, if registered.
    package static func starter(_ name: String) -> Starter? { registry.withLock { $0.first { $0.name == name }?.start } }
}
