import Synchronization

/// Every push and email the backend sent, in send order, for checkers and reports.
///
/// A run that no checker reads (a load test) keeps only counts (`Retention.counts`): the record
/// and its payload are a few hundred bytes a message, which would make memory grow with the
/// arrivals instead of with the operations in flight (docs/load.md). Reading `records` of such an
/// outbox traps, so a checker can never be handed an empty list that looks like silence.
public final class Outbox: Sendable {
    /// What the outbox keeps of each message.
    public enum Retention: Sendable, Equatable {
        /// Every record, in send order (the default: what checkers read).
        case records
        /// A count per channel, no records.
        case counts
    }

    private struct State {
        var records: [OutboxRecord] = []
        var pushes = 0
        var emails = 0

        mutating func count(_ channel: OutboxRecord.Channel) {
            switch channel {
            case .push: pushes += 1
            case .email: emails += 1
            }
        }
    }
    /// What this outbox keeps.
    public let retention: Retention
    private let state = Mutex(State())

    /// An empty outbox keeping `retention`.
    public init(retention: Retention = .records) {
        self.retention = retention
    }

    /// Whether a sender should build the record at all (false: it only counts).
    var keepsRecords: Bool { retention == .records }

    func append(_ record: OutboxRecord) {
        state.withLock { state in
            state.count(record.channel)
            if retention == .records { state.records.append(record) }
        }
    }

    /// Removes and returns the last push to `token` with collapse key `key` still waiting for its
    /// device at `now` (FCM keeps only the newest; docs/domain.md, "FCM"). Pushes sent before
    /// `horizon` are surely delivered, so the search stops there.
    func collapse(token: String, key: String, pendingAt now: Timestamp, horizon: Timestamp) -> OutboxRecord? {
        state.withLock { state in
            for index in state.records.indices.reversed() {
                let record = state.records[index]
                if record.sentAt < horizon { return nil }
                guard record.token == token, record.collapseKey == key else { continue }
                guard record.deliveredAt > now else { return nil }
                return state.records.remove(at: index)
            }
            return nil
        }
    }

    /// Counts a message whose record is not kept (`Retention.counts`).
    func count(_ channel: OutboxRecord.Channel) {
        state.withLock { $0.count(channel) }
    }

    /// All records in send order; traps for an outbox that keeps only counts.
    public var records: [OutboxRecord] {
        precondition(retention == .records, "this outbox keeps only counts (Outbox.Retention.counts): no checker may read its records")
        return state.withLock { $0.records }
    }

    /// Pushes sent (every retention).
    public var pushCount: Int { state.withLock { $0.pushes } }
    /// Emails sent (every retention).
    public var emailCount: Int { state.withLock { $0.emails } }

    /// Records of one type for one recipient.
    public func records(type: String, recipient: String? = nil) -> [OutboxRecord] {
        records.filter { $0.type == type && (recipient == nil || $0.recipient == recipient) }
    }
}
