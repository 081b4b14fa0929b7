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
        /// Per token, the index of its newest push that was not dropped: the only one that can be
        /// held for the device (a push sent while another is held is held too and replaces it).
        var newestPush: [String: Int] = [:]
        var pushes = 0
        var emails = 0

        /// The newest push to `token` with collapse key `key` still on its way at `now`, searched
        /// back to `horizon` (pushes sent before it have surely arrived).
        func pending(to token: String?, key: String, now: Timestamp, horizon: Timestamp) -> Int? {
            for index in records.indices.reversed() {
                let record = records[index]
                if record.sentAt < horizon { return nil }
                if record.channel == .push, record.token == token, record.collapseKey == key, record.fate == .delivered, record.deliveredAt > now {
                    return index
                }
            }
            return nil
        }

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

    /// What a push superseded on its way to the device (`appendPush`).
    package struct Superseded {
        /// The push with the same collapse key it replaced (`fcm-collapse`).
        package var collapsed: OutboxRecord?
        /// The push APNs held for the away device that it replaced (`apns-replaced`).
        package var replaced: OutboxRecord?
    }

    /// Appends `push` as FCM and APNs leave it (docs/domain.md, "FCM"). APNs stores one
    /// notification per app for a device that is away: a push sent while an earlier one is held
    /// for the device is held too, replaces it, and arrives when the device returns. A push held
    /// longer than `timeToLive` is dropped (`expired`) and replaces nothing. A push with a collapse
    /// key replaces one with the same key still on its way. Pushes sent before `horizon` have surely
    /// arrived, so the search stops there.
    package func appendPush(_ push: OutboxRecord, timeToLive: Duration, now: Timestamp, horizon: Timestamp) -> (record: OutboxRecord, superseded: Superseded) {
        state.withLock { state in
            let held = push.token.flatMap { state.newestPush[$0] }.flatMap { index -> Int? in
                let newest = state.records[index]
                return newest.heldForDevice && newest.fate == .delivered && newest.deliveredAt > now ? index : nil
            }
            let sameKey = push.collapseKey.flatMap { state.pending(to: push.token, key: $0, now: now, horizon: horizon) }
            let deliveredAt = max(push.deliveredAt, held.map { state.records[$0].deliveredAt } ?? push.deliveredAt)
            let away = push.heldForDevice || held != nil
            var record = OutboxRecord(
                channel: .push, recipient: push.recipient, type: push.type, payload: push.payload, sentAt: push.sentAt,
                deliveredAt: max(deliveredAt, sameKey.map { state.records[$0].deliveredAt } ?? deliveredAt),
                token: push.token, collapseKey: push.collapseKey, heldForDevice: away)
            var superseded = Superseded()
            if away && record.deliveredAt - now > timeToLive {
                record.fate = .expired
            } else {
                if let sameKey {
                    state.records[sameKey].fate = .collapsed
                    superseded.collapsed = state.records[sameKey]
                }
                if let held, held != sameKey {
                    state.records[held].fate = .replaced
                    superseded.replaced = state.records[held]
                }
            }
            state.count(.push)
            state.records.append(record)
            if let token = record.token, record.fate != .expired { state.newestPush[token] = state.records.count - 1 }
            return (record, superseded)
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
