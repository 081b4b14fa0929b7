import Domain
import FirebaseHarness
import Foundation
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Synchronization

/// Replays real users' SafeNSound check-ins on the simulator through the real domain code
/// (`recordHeartbeat`, the 30-minute check and the 2-minute sender on Cloud Scheduler, faults
/// off) and lists which alerts fire when, like the seed's 72-hour example.
public enum CheckInReplay {
    /// One line of the resulting table.
    public struct Row: Sendable, Equatable {
        /// When it happened.
        public let time: Timestamp
        /// Whose row it is.
        public let user: String
        /// Time since the user's last accepted check-in, nil before the first one.
        public let sinceLastCheckIn: Duration?
        /// The user's time zone then.
        public let timeZone: String
        /// What happened (check-in, alert created, email sent, …).
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

        /// Why the replay failed, in one line.
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
        let epoch = clockStart(before: first)
        let users = Users(of: ordered)
        let result = Simulation.run(configuration(epoch: epoch, last: last)) { () async throws -> [Row] in
            await replay(ordered, users: users, epoch: epoch, last: last, variant: variant)
        }
        guard let rows = result.output else { throw .unfinished("\(result.outcome)") }
        return rows
    }

    /// The clock's start: the half hour before `first`, so Cloud Scheduler's ticks fall on :00
    /// and :30 as cron runs them (Unix nanoseconds).
    static func clockStart(before first: Timestamp) -> Int64 {
        let halfHour: Int64 = 1_800 * 1_000_000_000
        return (first.unixNanoseconds - 1) / halfHour * halfHour
    }

    /// The simulation's configuration: FIFO, limits past the tail after the `last` event.
    static func configuration(epoch: Int64, last: Timestamp) -> SimulationConfiguration {
        let horizon = (last + tail).unixNanoseconds - epoch
        var configuration = SimulationConfiguration(seed: 1, strategy: .fifo)
        configuration.limits = SimulationLimits(
            maxSteps: 4_000_000_000, maxVirtualNanoseconds: UInt64(horizon) + 86_400 * 1_000_000_000, maxStepsAfterRoot: 100_000_000)
        return configuration
    }

    /// Users as dense indices, in order of first appearance: the replay's own tables are arrays,
    /// so an event costs one hash of its user id here instead of one per table.
    struct Users: Sendable {
        /// Each user's index, by user id.
        let index: [String: Int]
        /// Each index's user id.
        let names: [String]
        /// The index of each event's user, in the order of the events.
        let ofEvent: [Int]

        /// The users of `ordered`, numbered as they first appear.
        init(of ordered: [CheckInEvent]) {
            var index: [String: Int] = [:]
            var names: [String] = []
            ofEvent = ordered.map { event -> Int in
                let user = CheckInReplay.slot(&index[event.user, default: names.count])
                if user == names.count { names.append(event.user) }
                return user
            }
            self.index = index
            self.names = names
        }
    }

    /// The simulation's root: replays the `ordered` events on a backend whose clock starts at
    /// `epoch` and returns the rows in table order.
    static func replay(_ ordered: [CheckInEvent], users: Users, epoch: Int64, last: Timestamp, variant: SafeNSoundVariant) async -> [Row] {
        var session = Session(users: users, epoch: epoch, variant: variant)
        await session.backend.scheduler.start(firstTick: Timestamp(unixNanoseconds: epoch) + .seconds(1_800), until: last + tail)
        for (event, user) in zip(ordered, users.ofEvent) {
            try? await session.clock.sleep(until: event.time)
            await session.apply(event, user: user)
        }
        await session.backend.waitUntilIdle()
        // Ordered where the rows live (the only reference to them): no copy.
        return session.table.ledger.withLock { ledger in
            putInTableOrder(&ledger.rows)
            return ledger.rows
        }
    }

    /// Writes the table's rows: each at the clock's now, with the user's time since check-in and zone.
    struct TableRecorder: Sendable {
        let clock: DomainClock
        let ledger: Box<Ledger>
        let names: [String]

        /// Appends a row saying `what` for `user`.
        func add(_ user: Int, _ what: String) {
            let now = clock.now
            ledger.withLock { ledger in
                ledger.rows.append(Row(
                    time: now, user: names[user], sinceLastCheckIn: ledger.lastCheckIn[user].map { now - $0 },
                    timeZone: ledger.zones[user] ?? "UTC", what: what))
            }
        }

        /// Records a push or email attempt as a row of its user's, and whether the pre-notification is out.
        func record(_ message: SafeNSoundMessage, delivered: Bool, user: Int) {
            guard delivered else {
                let what = message.channel == .push ? "push pre-notification" : "email to \(message.recipient)"
                add(user, "\(what) failed (\(CheckInOutageMessenger.reason(message.channel))); the next 2-minute run retries")
                return
            }
            switch message.channel {
            case .push:
                ledger.withLock { $0.preSent[user] = true }
                add(user, "push pre-notification: \"\(message.body)\"")
            case .email:
                ledger.withLock { $0.preSent[user] = false }
                add(user, "email to \(message.recipient): \"\(message.body)\"")
            }
        }
    }

    /// One replay in progress: the backend and app the events drive, the table they write, and
    /// each user's onboarding state.
    struct Session {
        let clock: DomainClock
        let backend: Backend
        let outages: CheckInOutageMessenger
        let app: SafeNSoundApp
        let table: TableRecorder
        /// Whether each user has checked in (onboarded).
        var registered: [Bool]
        /// What each user set before onboarding (nil: nothing yet).
        var pending: [Onboarding?]

        /// The backend (faults off) and the app on the simulator's clock from `epoch`, with no user yet.
        init(users: Users, epoch: Int64, variant: SafeNSoundVariant) {
            clock = SimulatedEnvironment.domainClock(epochUnixNanoseconds: epoch)
            let env = SimulatedEnvironment.current(clock: clock)
            backend = Backend(env: env, faults: .none)
            let table = TableRecorder(clock: clock, ledger: Box(Ledger(users: users.names.count)), names: users.names)
            self.table = table
            let known = users.index
            outages = CheckInOutageMessenger(inner: SafeNSoundBackendMessenger(backend: backend), clock: clock) { message, delivered in
                guard let user = known[message.userId] else { preconditionFailure("a message for \(message.userId), who is not in the log") }
                table.record(message, delivered: delivered, user: user)
            }
            app = SafeNSoundApp(
                environment: env, configuration: SafeNSoundConfiguration(variant: variant), messenger: outages,
                store: SafeNSoundActorStore(environment: env))
            app.register(on: backend.functions)
            registered = [Bool](repeating: false, count: users.names.count)
            pending = [Onboarding?](repeating: nil, count: users.names.count)
        }

        /// Applies one event of `user`'s (its time zone first, when it carries one) and writes its row.
        mutating func apply(_ event: CheckInEvent, user: Int) async {
            let zone = table.ledger.withLock { ledger in
                if let zone = event.timeZone { ledger.zones[user] = zone }
                return ledger.zones[user] ?? "UTC"
            }
            switch event.action {
            case .setTimeZone(let identifier):
                table.ledger.withLock { $0.zones[user] = identifier }
                table.add(user, "time zone set to \(identifier) (sent with the next check-in)")
            case .setThreshold(let hours):
                await setThreshold(hours, user: user, userId: event.user)
            case .pause, .resume:
                await setActive(event.action == .resume, user: user, userId: event.user)
            case .addContact, .removeContact, .editContact:
                await changeContacts(event.action, user: user, userId: event.user)
            case .sendFailure(let channel, let minutes):
                outages.add(.init(channel: channel, from: clock.now, until: clock.now + .seconds(Int64(minutes) * 60)), for: event.user)
                table.add(user, "\(channel == .email ? "emails" : "pushes") fail for \(minutes) min (\(CheckInOutageMessenger.reason(channel)))")
            case .checkIn:
                await checkIn(user: user, userId: event.user, zone: zone)
            }
        }

        /// The user sets their threshold: in the app once onboarded, else for onboarding.
        mutating func setThreshold(_ hours: Int, user: Int, userId: String) async {
            if registered[user] {
                try? await app.setCheckInThreshold(userId: userId, hours: hours)
            } else {
                pending[user] = (pending[user] ?? Onboarding()).with(\.thresholdHours, hours)
            }
            table.add(user, "threshold set to \(hours) h")
        }

        /// The user pauses or resumes monitoring: in the app once onboarded, else for onboarding.
        mutating func setActive(_ active: Bool, user: Int, userId: String) async {
            if registered[user] {
                try? await app.setActive(userId: userId, active)
            } else {
                pending[user] = (pending[user] ?? Onboarding()).with(\.isActive, active)
            }
            table.add(user, active ? "monitoring resumed" : "monitoring paused")
        }

        /// The user adds, removes or edits an emergency contact, unless `ContactChange` refuses it.
        mutating func changeContacts(_ action: CheckInEvent.Action, user: Int, userId: String) async {
            let onboarded = registered[user]
            let current = onboarded ? (await app.user(userId)?.emergencyContactEmails ?? []) : (pending[user] ?? Onboarding()).contacts
            switch ContactChange.apply(action, to: current, onboarded: onboarded) {
            case .failure(let why):
                table.add(user, "contact change rejected: \(why)")
            case .success(let (contacts, what)):
                if onboarded {
                    try? await app.setEmergencyContacts(userId: userId, contacts)
                } else {
                    pending[user] = (pending[user] ?? Onboarding()).with(\.contacts, contacts)
                }
                table.add(user, what)
            }
        }

        /// The user taps check-in: onboarding the first time, a heartbeat after; a rejected
        /// heartbeat writes why and leaves the last check-in as it was.
        mutating func checkIn(user: Int, userId: String, zone: String) async {
            var what = "check-in"
            if !registered[user] {
                what += await onboard(user: user, userId: userId, zone: zone)
            } else {
                guard let outcome = await heartbeat(user: user, userId: userId, zone: zone) else { return }
                what += outcome
            }
            let now = clock.now
            table.ledger.withLock { $0.lastCheckIn[user] = now }
            table.add(user, what)
        }

        /// Registers the user with what they set before (defaults otherwise); returns the row's addition.
        mutating func onboard(user: Int, userId: String, zone: String) async -> String {
            registered[user] = true
            let plan = pending[user] ?? Onboarding()
            pending[user] = nil
            var profile = SafeNSoundUser(
                userId: userId, name: userId, fcmToken: "tok-\(userId)",
                emergencyContactEmails: plan.contacts.isEmpty ? ["contact-of-\(userId)@example.com"] : plan.contacts,
                checkInThresholdHours: plan.thresholdHours, lastHeartbeat: clock.now, timeZoneIdentifier: zone,
                isActive: plan.isActive)
            // Onboarding is the first tap: a heartbeat, so the 1-per-minute limit counts it.
            profile.lastHeartbeatCallAt = clock.now
            try? await app.registerUser(profile)
            return " (onboarding: threshold \(plan.thresholdHours) h, \(zone))"
        }

        /// Records a heartbeat; returns the row's addition (alerts and emails it cancelled), or nil
        /// when the app rejected it (its row then written here).
        func heartbeat(user: Int, userId: String, zone: String) async -> String? {
            do throws(SafeNSoundError) {
                var what = ""
                let response = try await app.recordHeartbeat(authenticatedUserId: userId, request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: zone))
                if response.cancelledAlertCount > 0 { what += "; cancelled \(response.cancelledAlertCount) scheduled alert(s)" }
                let wasPreSent = table.ledger.withLock { ledger in
                    defer { ledger.preSent[user] = false }
                    return ledger.preSent[user]
                }
                if wasPreSent { what += "; email to contacts cancelled" }
                return what
            } catch .rateLimited(_, let retryAfter) {
                table.add(user, "check-in rejected: at most 1 heartbeat per minute (retry in \(retryAfter) s)")
                return nil
            } catch {
                table.add(user, "check-in rejected: \(error)")
                return nil
            }
        }
    }

    /// Orders `rows` by time, then user (stable: one user's rows at one instant keep their order).
    /// Rows are recorded at the virtual clock's `now`, which never goes back, so only runs of
    /// equal time need sorting; a log out of time order (not expected) is sorted whole.
    static func putInTableOrder(_ rows: inout [Row]) {
        guard rows.indices.dropFirst().allSatisfy({ rows[$0 - 1].time <= rows[$0].time }) else {
            rows.sort { ($0.time, $0.user) < ($1.time, $1.user) }
            return
        }
        rows.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                var end = start + 1
                while end < buffer.count && buffer[end].time == buffer[start].time { end += 1 }
                if end - start > 1 {
                    var run = UnsafeMutableBufferPointer(rebasing: buffer[start..<end])
                    run.sort { $0.user < $1.user }
                }
                start = end
            }
        }
    }

    /// What a user set before their first check-in (onboarding).
    struct Onboarding {
        var thresholdHours = 72
        var isActive = true
        var contacts: [String] = []

        /// A copy with one setting changed.
        func with<Value>(_ setting: WritableKeyPath<Onboarding, Value>, _ value: Value) -> Onboarding {
            var copy = self
            copy[keyPath: setting] = value
            return copy
        }
    }

    /// What the replay learnt so far, shared by the event loop and the delivery log; per-user
    /// tables are indexed by the user's index (order of first appearance in the log).
    struct Ledger: Sendable {
        var rows: [Row] = []
        var lastCheckIn: [Timestamp?]
        /// The device's zone as last given (nil: none yet, printed as UTC).
        var zones: [String?]
        /// Whether the push pre-notification went out in the current window (no email since).
        var preSent: [Bool]

        init(users: Int) {
            lastCheckIn = Array(repeating: nil, count: users)
            zones = Array(repeating: nil, count: users)
            preSent = Array(repeating: false, count: users)
        }
    }

    /// Reads an index through a `[key, default: next]` subscript, which stores `next` for a new key (one hash).
    private static func slot(_ index: inout Int) -> Int { index }

    /// A value behind a lock.
    final class Box<Value: Sendable>: Sendable {
        private let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
        func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    /// The rows as an aligned text table: UTC time, user, time since last check-in, local time, what happened.
    public static func table(_ rows: [Row]) -> String {
        var bytes: [UInt8] = []
        writeTable(rows) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `table(rows)` as UTF-8 to `write`, in pieces of about `chunkBytes`: the table of
    /// a 100,000-user log is over 100 MB, which as cells, a String and a Data copy cost more
    /// than the replay's bookkeeping. Each cell is formatted twice (widths, then text) into
    /// one reused buffer; nothing per row is kept.
    public static func writeTable(_ rows: [Row], chunkBytes: Int = 1 << 20, to write: ([UInt8]) -> Void) {
        precondition(chunkBytes > 0, "chunks must hold something")
        let header = ["time (UTC)", "user", "since check-in", "local time (user's zone)", "what happened"]
        guard let first = rows.first?.time, let last = rows.last?.time else {
            write(Array((header.joined(separator: "  ") + "\n").utf8))
            return
        }
        var face = CheckInClockFace(from: first, through: last)
        var cells: [[UInt8]] = Array(repeating: [], count: 4)
        for column in 0..<4 { cells[column].reserveCapacity(128) }
        /// Formats columns 0–3 of row `index` into `cells`.
        func fill(_ index: Int) {
            for column in 0..<4 { cells[column].removeAll(keepingCapacity: true) }
            face.appendUTC(rows[index].time, to: &cells[0])
            cells[1].append(contentsOf: rows[index].user.utf8)
            appendHoursMinutes(rows[index].sinceLastCheckIn, to: &cells[2])
            face.appendLocal(rows[index].time, zone: rows[index].timeZone, to: &cells[3])
        }
        var widths = header.prefix(4).map { width(Array($0.utf8)) }
        for index in rows.indices {
            fill(index)
            for column in 0..<4 { widths[column] = max(widths[column], width(cells[column])) }
        }
        var output: [UInt8] = []
        output.reserveCapacity(chunkBytes + 4_096)
        func pad(_ column: Int, after text: [UInt8]) {
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widths[column] - width(text) + 2))
        }
        for column in 0..<4 {
            let text = Array(header[column].utf8)
            output.append(contentsOf: text)
            pad(column, after: text)
        }
        output.append(contentsOf: header[4].utf8)
        output.append(UInt8(ascii: "\n"))
        for index in rows.indices {
            fill(index)
            for column in 0..<4 {
                output.append(contentsOf: cells[column])
                pad(column, after: cells[column])
            }
            output.append(contentsOf: rows[index].what.utf8)
            output.append(UInt8(ascii: "\n"))
            if output.count >= chunkBytes {
                write(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        write(output)
    }

    /// Characters, as the eye counts them; ASCII (nearly every cell) without grapheme breaking.
    private static func width(_ utf8: [UInt8]) -> Int {
        utf8.allSatisfy { $0 < 0x80 } ? utf8.count : String(decoding: utf8, as: UTF8.self).count
    }

    /// Appends `hoursMinutes(duration)`, or `-` for nil.
    static func appendHoursMinutes(_ duration: Duration?, to out: inout [UInt8]) {
        guard let duration else {
            out.append(UInt8(ascii: "-"))
            return
        }
        let minutes = Int(duration.nanoseconds / 60_000_000_000)
        CheckInClockFace.appendDecimal(minutes / 60, to: &out)
        out.append(UInt8(ascii: "h"))
        out.append(UInt8(ascii: " "))
        CheckInClockFace.appendTwo(minutes % 60, to: &out)
        out.append(UInt8(ascii: "m"))
    }

    static func hoursMinutes(_ duration: Duration) -> String {
        let minutes = duration.nanoseconds / 60_000_000_000
        let text = "\(minutes / 60)h " + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)m"
        return text
    }
}
