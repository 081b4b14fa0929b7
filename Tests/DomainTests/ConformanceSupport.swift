import Domain
import SimulatedFirebase
import Synchronization

/// What a conformance test's handler saw of one invocation, in invocation order.
struct Invocation: Sendable, Hashable {
    /// `<document path>@v<version>`: one committed write (duplicates share it).
    let write: String
    let documentId: String
    let version: UInt64
    let eventId: String
    let commitNanoseconds: Int64
    let invokedNanoseconds: Int64
}

/// A thread-safe log the handlers append to (the handler's view, not the dispatcher's state).
final class InvocationLog: Sendable {
    private let entries = Mutex<[Invocation]>([])

    func record(_ event: TriggerEvent, now: Timestamp) {
        let entry = Invocation(
            write: "\(event.path)@v\(event.after.version)",
            documentId: event.path.id, version: event.after.version, eventId: event.eventId,
            commitNanoseconds: event.commitTime.unixNanoseconds, invokedNanoseconds: now.unixNanoseconds)
        entries.withLock { $0.append(entry) }
    }

    var invocations: [Invocation] { entries.withLock { $0 } }

    /// Invocations grouped per committed write, in first-invocation order.
    var perWrite: [(write: String, invocations: [Invocation])] {
        var order: [String] = []
        var groups: [String: [Invocation]] = [:]
        for invocation in invocations {
            if groups[invocation.write] == nil { order.append(invocation.write) }
            groups[invocation.write, default: []].append(invocation)
        }
        return order.map { ($0, groups[$0]!) }
    }
}

/// Samples of a measured quantity with the order statistics the suite asserts on.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    var count: Int { values.count }
    var mean: Double { values.reduce(0, +) / Double(max(1, values.count)) }
    var minimum: Double { values.min() ?? .nan }
    var maximum: Double { values.max() ?? .nan }
    /// How many samples are ≤ `threshold` (a binomial count when the samples are independent).
    func count(atMost threshold: Double) -> Int { values.filter { $0 <= threshold }.count }
    func count(above threshold: Double) -> Int { values.filter { $0 > threshold }.count }
}

extension Duration {
    /// Seconds as a Double, for statistics over virtual-time measurements.
    var seconds: Double { Double(nanoseconds) / 1e9 }
}
