import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// A SafeNSound heartbeat timeline for `rehearse bench` and the benchmarks: `users` users with
/// thresholds of 24, 48 and 72 h, most checking in at their own rhythm and every fourth never
/// checking in, while `checkMissedHeartbeats` runs every 30 min and `processScheduledAlerts`
/// every 2 min, for `hours` of clock time.
///
/// The same code runs on any `DomainEnvironment`: on the simulator (`HeartbeatWorkload.simulate`)
/// time jumps between timers; under swift-clocks' `TestClock` the test advances time itself.
/// Heartbeats fall on odd minutes and the scheduled functions on even ones, so the order of
/// events is fixed by the plan and every correct driver produces the same `Outcome`.
public final class HeartbeatWorkload: Sendable {
    /// What the timeline does; the counts of users, rhythms and thresholds are all derived from it.
    public struct Plan: Sendable, Equatable {
        /// Registered users.
        public var users: Int
        /// Clock hours the timeline covers.
        public var hours: Int
        /// Every `missingEvery`-th user (0, n, 2n, …) never checks in.
        public var missingEvery: Int
        /// Check-in intervals (hours) assigned round-robin to the users who check in; some exceed
        /// a threshold's pre-notification lead, so pre-notifications are sent and later cancelled.
        public var checkInIntervalsHours: [Int]
        /// Device tasks that send the heartbeats (each walks its slice of users in time order).
        public var deviceTasks: Int

        /// A plan; traps on non-positive counts.
        public init(users: Int, hours: Int = 72, missingEvery: Int = 4, checkInIntervalsHours: [Int] = [12, 22, 30, 46], deviceTasks: Int = 16) {
            precondition(users >= 1, "a timeline needs at least one user")
            precondition(hours >= 1, "a timeline lasts at least one hour")
            precondition(missingEvery >= 1, "missingEvery must be positive")
            precondition(!checkInIntervalsHours.isEmpty && checkInIntervalsHours.allSatisfy { $0 >= 1 }, "check-in intervals must be positive hours")
            precondition(deviceTasks >= 1, "at least one device task")
            self.users = users
            self.hours = hours
            self.missingEvery = missingEvery
            self.checkInIntervalsHours = checkInIntervalsHours
            self.deviceTasks = deviceTasks
        }

        static let thresholdsHours = [24, 48, 72]
        static let minute: Int64 = 60 * 1_000_000_000

        func userId(_ index: Int) -> String { "u\(index)" }
        func threshold(of index: Int) -> Int { Self.thresholdsHours[index % Self.thresholdsHours.count] }
        func checksIn(_ index: Int) -> Bool { index % missingEvery != 0 }

        /// Minutes after the start of each of user `index`'s heartbeats (odd minutes only).
        func heartbeatMinutes(of index: Int) -> [Int64] {
            guard checksIn(index) else { return [] }
            let interval = Int64(checkInIntervalsHours[index % checkInIntervalsHours.count] * 60)
            let first = 2 * Int64((index &* 7919) % Int(interval / 2)) + 1
            return Array(stride(from: first, through: Int64(hours * 60), by: Int(interval)))
        }
    }

    /// What happened: equal for every driver that ran the plan correctly.
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        /// Heartbeats the app recorded.
        public var heartbeatsAccepted = 0
        /// Heartbeats it refused (rate limit).
        public var heartbeatsRejected = 0
        /// Runs of the 30-minute check.
        public var checkRuns = 0
        /// Runs of the 2-minute sender.
        public var senderRuns = 0
        /// Pre-notification alerts created.
        public var preNotificationAlerts = 0
        /// Email alerts created.
        public var emailAlerts = 0
        /// Alerts sent.
        public var sentAlerts = 0
        /// Alerts cancelled by a later check-in.
        public var cancelledAlerts = 0
        /// Pushes the messenger got.
        public var pushesDelivered = 0
        /// Emails the messenger got.
        public var emailsDelivered = 0

        /// All counts in one line.
        public var description: String {
            "heartbeats \(heartbeatsAccepted)+\(heartbeatsRejected) rejected, checks \(checkRuns), sender runs \(senderRuns), alerts \(preNotificationAlerts) pre + \(emailAlerts) email (\(sentAlerts) sent, \(cancelledAlerts) cancelled), delivered \(pushesDelivered) push + \(emailsDelivered) email"
        }
    }

    /// What the timeline does.
    public let plan: Plan
    /// The app under load (actor store).
    public let app: SafeNSoundApp
    let environment: DomainEnvironment
    let messenger: CountingMessenger
    let start: Timestamp

    /// Builds the app (actor store) on `environment`; `register()` then adds the users.
    public init(plan: Plan, environment: DomainEnvironment) {
        self.plan = plan
        self.environment = environment
        self.messenger = CountingMessenger()
        self.app = SafeNSoundApp(environment: environment, messenger: messenger, store: SafeNSoundActorStore(environment: environment))
        self.start = environment.clock.now
    }

    /// Registers every user at the current instant (their first check-in).
    public func register() async {
        await register(plan.users)
    }

    /// Registers users `0..<count` (for memory measurements of idle users).
    public func register(_ count: Int) async {
        let now = environment.clock.now
        for index in 0..<count {
            do {
                try await app.registerUser(SafeNSoundUser(
                    userId: plan.userId(index), name: "User \(index)", fcmToken: "fcm\(index)",
                    emergencyContactEmails: ["c\(index)@ex.io"], checkInThresholdHours: plan.threshold(of: index),
                    lastHeartbeat: now, timeZoneIdentifier: "UTC"))
            } catch {
                preconditionFailure("registering \(plan.userId(index)) failed: \(error)")
            }
        }
    }

    /// Runs the scheduled functions and the devices until `hours` have passed, then counts.
    public func run() async -> Outcome {
        let end = start + .seconds(Int64(plan.hours) * 3600)
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await every(.seconds(30 * 60), until: end) {
                    await self.app.checkMissedHeartbeats()
                    tally.runs.withLock { $0.checks += 1 }
                }
            }
            group.addTask { [self] in
                await every(.seconds(2 * 60), until: end) {
                    await self.app.processScheduledAlerts()
                    tally.runs.withLock { $0.sender += 1 }
                }
            }
            for device in 0..<min(plan.deviceTasks, plan.users) {
                group.addTask { [self] in
                    let (accepted, rejected) = await runDevice(device)
                    tally.heartbeats.withLock { $0.accepted += accepted; $0.rejected += rejected }
                }
            }
        }
        var outcome = Outcome()
        (outcome.heartbeatsAccepted, outcome.heartbeatsRejected) = tally.heartbeats.withLock { ($0.accepted, $0.rejected) }
        (outcome.checkRuns, outcome.senderRuns) = tally.runs.withLock { ($0.checks, $0.sender) }
        for alert in await app.alerts() {
            switch alert.kind {
            case .preNotification: outcome.preNotificationAlerts += 1
            case .emailAlert: outcome.emailAlerts += 1
            }
            switch alert.status {
            case .sent: outcome.sentAlerts += 1
            case .cancelled: outcome.cancelledAlerts += 1
            case .scheduled, .sending, .failed: break  // failed: only the email-failure-marks-failed variant
            }
        }
        (outcome.pushesDelivered, outcome.emailsDelivered) = messenger.counts
        return outcome
    }

    /// Calls `body` at start + period, start + 2 period, … up to and including `end`.
    private func every(_ period: Duration, until end: Timestamp, _ body: () async -> Void) async {
        var next = start + period
        while next <= end {
            do { try await environment.clock.sleep(until: next) } catch { return }
            await body()
            next = next + period
        }
    }

    /// One device task: the heartbeats of users `device`, `device + deviceTasks`, … in time order.
    private func runDevice(_ device: Int) async -> (accepted: Int, rejected: Int) {
        var schedule: [(minute: Int64, user: Int)] = []
        for index in stride(from: device, to: plan.users, by: plan.deviceTasks) {
            for minute in plan.heartbeatMinutes(of: index) { schedule.append((minute, index)) }
        }
        schedule.sort { ($0.minute, $0.user) < ($1.minute, $1.user) }
        var accepted = 0
        var rejected = 0
        for (minute, index) in schedule {
            do { try await environment.clock.sleep(until: start + .nanoseconds(minute * Plan.minute)) } catch { break }
            do {
                let userId = plan.userId(index)
                _ = try await app.recordHeartbeat(
                    authenticatedUserId: userId,
                    request: SafeNSoundHeartbeatRequest(userId: userId, timeZoneIdentifier: "UTC", deviceModel: "bench"))
                accepted += 1
            } catch {
                rejected += 1
            }
        }
        return (accepted, rejected)
    }
}

/// Counters shared by the timeline's tasks.
private final class Tally: Sendable {
    let heartbeats = Mutex((accepted: 0, rejected: 0))
    let runs = Mutex((checks: 0, sender: 0))
}

/// Counts messages instead of keeping them (a 100,000-user timeline sends tens of thousands).
final class CountingMessenger: SafeNSoundMessenger {
    private let delivered = Mutex((push: 0, email: 0))

    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        delivered.withLock {
            switch message.channel {
            case .push: $0.push += 1
            case .email: $0.email += 1
            }
        }
    }

    var counts: (push: Int, email: Int) { delivered.withLock { ($0.push, $0.email) } }
}
