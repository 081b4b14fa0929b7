import Domain
import Foundation
import Sim
import Synchronization

/// Replays real users' SafeNSound check-ins on the simulator through the real domain code
/// (`recordHeartbeat`, the 30-minute check and the 2-minute sender on Cloud Scheduler, faults
/// off) and lists which alerts fire when, like the seed's 72-hour example.
public enum CheckInReplay {
    /// One line of the resulting table.
    public struct Row: Sendable, Equatable {
        public let time: Timestamp
        public let user: String
        /// Time since the user's last accepted check-in, nil before the first one.
        public let sinceLastCheckIn: Duration?
        public let timeZone: String
        public let what: String
    }

    /// How long after the last event the replay keeps the scheduler running (longest threshold + 1 h).
    static let tail: Duration = .seconds(73 * 3600)

    /// Replays `events` (any order; sorted by time, then line) and returns the table rows in time order.
    public static func run(_ events: [CheckInEvent]) -> [Row] {
        guard let first = events.map(\.time).min(), let last = events.map(\.time).max() else { return [] }
        let ordered = events.sorted { ($0.time, $0.line) < ($1.time, $1.line) }
        // The clock starts on the half hour before the first event, so Cloud Scheduler's
        // ticks fall on :00 and :30 as cron runs them.
        let halfHour: Int64 = 1_800 * 1_000_000_000
        let epoch = (first.unixNanoseconds - 1) / halfHour * halfHour
        let result = Simulation.run(SimulationConfiguration(seed: 1, strategy: .fifo)) { () async throws -> [Row] in
            let clock = DomainClock(SimClock(), epochUnixNanoseconds: epoch)
            let env = DomainEnvironment(clock: clock, executors: SimExecutorSource(), random: SimRandomSource(streams: Simulation.streams))
            let backend = Backend(env: env, faults: .none)
            let ledger = Ledger()
            let rows = ledger.rows, lastCheckIn = ledger.lastCheckIn, zones = ledger.zones, preSent = ledger.preSent
            let add: @Sendable (String, String) -> Void = { user, what in
                let now = clock.now
                let since = lastCheckIn.withLock { $0[user] }.map { now - $0 }
                let zone = zones.withLock { $0[user] } ?? "UTC"
                rows.withLock { $0.append(Row(time: now, user: user, sinceLastCheckIn: since, timeZone: zone, what: what)) }
            }
            let log = SafeNSoundDeliveryLog(inner: SafeNSoundBackendMessenger(backend: backend), clock: clock) { delivery in
                let message = delivery.message
                guard delivery.delivered else { return }
                switch message.channel {
                case .push:
                    preSent.withLock { _ = $0.insert(message.userId) }
                    add(message.userId, "push pre-notification: \"\(message.body)\"")
                case .email:
                    preSent.withLock { _ = $0.remove(message.userId) }
                    add(message.userId, "email to \(message.recipient): \"\(message.body)\"")
                }
            }
            let app = SafeNSoundApp(environment: env, configuration: SafeNSoundConfiguration(), messenger: log, store: SafeNSoundActorStore(environment: env))
            app.register(on: backend.functions)
            await backend.scheduler.start(firstTick: Timestamp(unixNanoseconds: epoch) + .seconds(1_800), until: last + tail)
            var registered: Set<String> = []
            var pendingThreshold: [String: Int] = [:]
            for event in ordered {
                try? await clock.sleep(until: event.time)
                if let zone = event.timeZone { zones.withLock { $0[event.user] = zone } }
                let zone = zones.withLock { $0[event.user] } ?? "UTC"
                switch event.action {
                case .setTimeZone(let identifier):
                    zones.withLock { $0[event.user] = identifier }
                    add(event.user, "time zone set to \(identifier) (sent with the next check-in)")
                case .setThreshold(let hours):
                    if registered.contains(event.user) {
                        try? await app.setCheckInThreshold(userId: event.user, hours: hours)
                    } else {
                        pendingThreshold[event.user] = hours
                    }
                    add(event.user, "threshold set to \(hours) h")
                case .checkIn:
                    var what = "check-in"
                    if !registered.contains(event.user) {
                        registered.insert(event.user)
                        let hours = pendingThreshold[event.user] ?? 72
                        try? await app.registerUser(SafeNSoundUser(
                            userId: event.user, name: event.user, fcmToken: "tok-\(event.user)",
                            emergencyContactEmails: ["contact-of-\(event.user)@example.com"], checkInThresholdHours: hours,
                            lastHeartbeat: clock.now, timeZoneIdentifier: zone))
                        what += " (onboarding: threshold \(hours) h, \(zone))"
                    } else {
                        do throws(SafeNSoundError) {
                            let response = try await app.recordHeartbeat(authenticatedUserId: event.user, request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: zone))
                            if response.cancelledAlertCount > 0 { what += "; cancelled \(response.cancelledAlertCount) scheduled alert(s)" }
                            if preSent.withLock({ $0.remove(event.user) }) != nil { what += "; email to contacts cancelled" }
                        } catch {
                            add(event.user, "check-in rejected: \(error)")
                            continue
                        }
                    }
                    lastCheckIn.withLock { $0[event.user] = clock.now }
                    add(event.user, what)
                }
            }
            await backend.waitUntilIdle()
            return rows.withLock { $0 }
        }
        return (result.output ?? []).sorted { ($0.time, $0.user) < ($1.time, $1.user) }
    }

    /// What the replay learnt so far, shared by the event loop and the delivery log.
    final class Ledger: Sendable {
        let rows = Box<[Row]>([])
        let lastCheckIn = Box<[String: Timestamp]>([:])
        let zones = Box<[String: String]>([:])
        let preSent = Box<Set<String>>([])
    }

    /// A value behind a lock.
    final class Box<Value: Sendable>: Sendable {
        private let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
        func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    /// The rows as an aligned text table: UTC time, user, time since last check-in, local time, what happened.
    public static func table(_ rows: [Row]) -> String {
        let header = ["time (UTC)", "user", "since check-in", "local time (user's zone)", "what happened"]
        let body = rows.map { row in
            [format(row.time, zone: "UTC", pattern: "yyyy-MM-dd HH:mm"), row.user, row.sinceLastCheckIn.map(hoursMinutes) ?? "-",
             format(row.time, zone: row.timeZone, pattern: "EEE MMM d, h:mm a zzz"), row.what]
        }
        let widths = (0..<4).map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        return ([header] + body).map { cells in
            (0..<4).map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + cells[4]
        }.joined(separator: "\n") + "\n"
    }

    static func hoursMinutes(_ duration: Duration) -> String {
        let minutes = duration.nanoseconds / 60_000_000_000
        let text = "\(minutes / 60)h " + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)m"
        return text
    }

    static func format(_ instant: Timestamp, zone: String, pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(instant.unixSeconds)))
    }
}
