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
    /// Longest span of a log the replay accepts (first to last event): over a year, bounded so a
    /// typo in one year (2062 for 2026) is bad input, not hours of 2-minute ticks.
    public static let maxSpan: Duration = .seconds(400 * 86_400)

    /// Why a replay could not be done: the log is unusable (bad input), or the simulation stopped.
    public enum Failure: Error, CustomStringConvertible {
        case badInput(CheckInReplayError)
        case unfinished(String)

        public var description: String {
            switch self {
            case .badInput(let error): error.description
            case .unfinished(let why): "the replay did not finish (\(why)); please report this with the log"
            }
        }
    }

    /// Checks what parsing cannot: the span of the log.
    public static func validate(_ events: [CheckInEvent], file: String) throws(CheckInReplayError) {
        guard let first = events.min(by: { $0.time < $1.time }), let last = events.max(by: { $0.time < $1.time }) else {
            throw CheckInReplayError(file: file, line: 0, problem: "no events")
        }
        if last.time - first.time > maxSpan {
            let days = (last.time - first.time).nanoseconds / 86_400_000_000_000
            throw CheckInReplayError(file: file, line: last.line, problem: "the log spans \(days) days (line \(first.line) to line \(last.line)); rehearse timeline replays at most \(maxSpan.nanoseconds / 86_400_000_000_000) days (CheckInReplay.maxSpan): split the log")
        }
    }

    /// Replays `events` (any order; sorted by time, then line) under `variant` and returns the
    /// table rows in time order. Throws `.unfinished` if the simulation hit a limit.
    public static func run(_ events: [CheckInEvent], variant: SafeNSoundVariant = .careful) throws(Failure) -> [Row] {
        guard let first = events.map(\.time).min(), let last = events.map(\.time).max() else { return [] }
        let ordered = events.sorted { ($0.time, $0.line) < ($1.time, $1.line) }
        // The clock starts on the half hour before the first event, so Cloud Scheduler's
        // ticks fall on :00 and :30 as cron runs them.
        let halfHour: Int64 = 1_800 * 1_000_000_000
        let epoch = (first.unixNanoseconds - 1) / halfHour * halfHour
        let horizon = (last + tail).unixNanoseconds - epoch
        var configuration = SimulationConfiguration(seed: 1, strategy: .fifo)
        configuration.limits = SimulationLimits(
            maxSteps: 4_000_000_000, maxVirtualNanoseconds: UInt64(horizon) + 86_400 * 1_000_000_000, maxStepsAfterRoot: 100_000_000)
        let result = Simulation.run(configuration) { () async throws -> [Row] in
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
            let outages = CheckInOutageMessenger(inner: SafeNSoundBackendMessenger(backend: backend), clock: clock) { message, delivered in
                guard delivered else {
                    let what = message.channel == .push ? "push pre-notification" : "email to \(message.recipient)"
                    add(message.userId, "\(what) failed (\(CheckInOutageMessenger.reason(message.channel))); the next 2-minute run retries")
                    return
                }
                switch message.channel {
                case .push:
                    preSent.withLock { _ = $0.insert(message.userId) }
                    add(message.userId, "push pre-notification: \"\(message.body)\"")
                case .email:
                    preSent.withLock { _ = $0.remove(message.userId) }
                    add(message.userId, "email to \(message.recipient): \"\(message.body)\"")
                }
            }
            let app = SafeNSoundApp(
                environment: env, configuration: SafeNSoundConfiguration(variant: variant), messenger: outages,
                store: SafeNSoundActorStore(environment: env))
            app.register(on: backend.functions)
            await backend.scheduler.start(firstTick: Timestamp(unixNanoseconds: epoch) + .seconds(1_800), until: last + tail)
            var registered: Set<String> = []
            var pending: [String: Onboarding] = [:]
            for event in ordered {
                try? await clock.sleep(until: event.time)
                let user = event.user
                if let zone = event.timeZone { zones.withLock { $0[user] = zone } }
                let zone = zones.withLock { $0[user] } ?? "UTC"
                switch event.action {
                case .setTimeZone(let identifier):
                    zones.withLock { $0[user] = identifier }
                    add(user, "time zone set to \(identifier) (sent with the next check-in)")
                case .setThreshold(let hours):
                    if registered.contains(user) {
                        try? await app.setCheckInThreshold(userId: user, hours: hours)
                    } else {
                        pending[user, default: Onboarding()].thresholdHours = hours
                    }
                    add(user, "threshold set to \(hours) h")
                case .pause, .resume:
                    let active = event.action == .resume
                    if registered.contains(user) {
                        try? await app.setActive(userId: user, active)
                    } else {
                        pending[user, default: Onboarding()].isActive = active
                    }
                    add(user, active ? "monitoring resumed" : "monitoring paused")
                case .addContact, .removeContact, .editContact:
                    let onboarded = registered.contains(user)
                    let current = onboarded ? (await app.user(user)?.emergencyContactEmails ?? []) : pending[user, default: Onboarding()].contacts
                    switch ContactChange.apply(event.action, to: current, onboarded: onboarded) {
                    case .failure(let why):
                        add(user, "contact change rejected: \(why)")
                    case .success(let (contacts, what)):
                        if onboarded {
                            try? await app.setEmergencyContacts(userId: user, contacts)
                        } else {
                            pending[user, default: Onboarding()].contacts = contacts
                        }
                        add(user, what)
                    }
                case .sendFailure(let channel, let minutes):
                    outages.add(.init(channel: channel, from: clock.now, until: clock.now + .seconds(Int64(minutes) * 60)), for: user)
                    add(user, "\(channel == .email ? "emails" : "pushes") fail for \(minutes) min (\(CheckInOutageMessenger.reason(channel)))")
                case .checkIn:
                    var what = "check-in"
                    if !registered.contains(user) {
                        registered.insert(user)
                        let plan = pending.removeValue(forKey: user) ?? Onboarding()
                        var profile = SafeNSoundUser(
                            userId: user, name: user, fcmToken: "tok-\(user)",
                            emergencyContactEmails: plan.contacts.isEmpty ? ["contact-of-\(user)@example.com"] : plan.contacts,
                            checkInThresholdHours: plan.thresholdHours, lastHeartbeat: clock.now, timeZoneIdentifier: zone,
                            isActive: plan.isActive)
                        // Onboarding is the first tap: a heartbeat, so the 1-per-minute limit counts it.
                        profile.lastHeartbeatCallAt = clock.now
                        try? await app.registerUser(profile)
                        what += " (onboarding: threshold \(plan.thresholdHours) h, \(zone))"
                    } else {
                        do throws(SafeNSoundError) {
                            let response = try await app.recordHeartbeat(authenticatedUserId: user, request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: zone))
                            if response.cancelledAlertCount > 0 { what += "; cancelled \(response.cancelledAlertCount) scheduled alert(s)" }
                            if preSent.withLock({ $0.remove(user) }) != nil { what += "; email to contacts cancelled" }
                        } catch .rateLimited(_, let retryAfter) {
                            add(user, "check-in rejected: at most 1 heartbeat per minute (retry in \(retryAfter) s)")
                            continue
                        } catch {
                            add(user, "check-in rejected: \(error)")
                            continue
                        }
                    }
                    lastCheckIn.withLock { $0[user] = clock.now }
                    add(user, what)
                }
            }
            await backend.waitUntilIdle()
            return rows.withLock { $0 }
        }
        guard let rows = result.output else { throw .unfinished("\(result.outcome)") }
        return rows.sorted { ($0.time, $0.user) < ($1.time, $1.user) }
    }

    /// What a user set before their first check-in (onboarding).
    struct Onboarding {
        var thresholdHours = 72
        var isActive = true
        var contacts: [String] = []
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
        guard let first = rows.first?.time, let last = rows.last?.time else { return header.joined(separator: "  ") + "\n" }
        var face = CheckInClockFace(from: first, through: last)
        var body: [[String]] = []
        body.reserveCapacity(rows.count)
        for row in rows {
            body.append([face.utc(row.time), row.user, row.sinceLastCheckIn.map(hoursMinutes) ?? "-", face.local(row.time, zone: row.timeZone), row.what])
        }
        // Characters, as the eye counts them; ASCII (nearly every cell) without grapheme breaking.
        func width(_ text: String) -> Int {
            text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.count : text.count
        }
        var widths = [0, 0, 0, 0]
        for cells in [header] + body {
            for column in 0..<4 { widths[column] = max(widths[column], width(cells[column])) }
        }
        var output = ""
        output.reserveCapacity((rows.count + 1) * 160)
        for cells in [header] + body {
            for column in 0..<4 {
                output += cells[column]
                output += String(repeating: " ", count: widths[column] - width(cells[column]) + 2)
            }
            output += cells[4]
            output += "\n"
        }
        return output
    }

    static func hoursMinutes(_ duration: Duration) -> String {
        let minutes = duration.nanoseconds / 60_000_000_000
        let text = "\(minutes / 60)h " + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)m"
        return text
    }
}
