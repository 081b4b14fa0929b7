import Synchronization

/// Every push and email the backend sent, in send order, for checkers and reports.
public final class Outbox: Sendable {
    private let state = Mutex<[OutboxRecord]>([])

    /// An empty outbox.
    public init() {}

    func append(_ record: OutboxRecord) { state.withLock { $0.append(record) } }

    /// All records in send order.
    public var records: [OutboxRecord] { state.withLock { $0 } }

    /// Records of one type for one recipient.
    public func records(type: String, recipient: String? = nil) -> [OutboxRecord] {
        records.filter { $0.type == type && (recipient == nil || $0.recipient == recipient) }
    }
}
