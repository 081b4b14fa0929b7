import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

extension HeartbeatTimelineScenario {
    /// The periodic Always checks over alerts, accepted heartbeats and deliveries, made on what
    /// changed since the last pass rather than by re-reading everything (every 10 virtual minutes
    /// over the whole run made them O(users) per pass, O(users × hours) per run).
    ///
    /// Equivalent to re-checking everything each pass — same violation (check, message, step),
    /// same observation counts — because what was checked before cannot change its verdict:
    /// an alert's user, kind and window are written once; a delivery's checks depend only on the
    /// deliveries before it (in log order), its alert and the heartbeats committed before it
    /// started, all fixed once it is in the log; a pause comes after every delivery already logged.
    /// Items already checked held (or the run already has its violation, and only their count
    /// matters), so they are counted in one batch per check and only new items are evaluated, in
    /// the order the full pass would evaluate them.
    final class Monitor: Sendable {
        struct State {
            /// How many creations of `scheduled_alerts` were read (`Firestore.insertedIds`).
            var alertCursor = 0
            var alerts: [String: SeenAlert] = [:]
            /// Alert ids per "user|window|kind".
            var perWindow: [String: [String]] = [:]
            /// Accepted-heartbeat pairs checked per user, and their total.
            var pairs: [String: Int] = [:]
            var totalPairs = 0
            /// How many paused users were read (`Observed.State.pauseOrder`).
            var pauseCursor = 0
            /// How many deliveries were read from the log.
            var deliveryCursor = 0
            /// Delivered attempts that passed the lookups (each adds one observation per pass to
            /// no-double-send, no-alert-after-checkin and alert-on-time), per user and in all.
            var checkedDeliveries = 0
            var checkedPerUser: [String: Int] = [:]
            /// Of those, emails (email-shows-local-time) and those of paused users (a second
            /// no-alert-after-checkin observation each).
            var checkedEmails = 0
            var pausedObservations = 0
            // The running state of the delivery pass, as the full pass rebuilds it in log order.
            var sent: [String: Int] = [:]
            var failures: [String: Int] = [:]
            var unconfirmed: Set<String> = []
            var reachedByAlert: [String: Set<String>] = [:]
        }
        let state = Mutex(State())
    }

    /// How late an alert may go out after `failures` failed attempts: one attempt allowance for
    /// each attempt, plus the backoff the design promises before each retry beyond the next run
    /// (the k-th retry waits 2 min × 2^(k−1), at most `retryMaxMinutes`, of which the first
    /// 2 min is the sender's own period already in the allowance).
    static func retryAllowance(failures: Int, retryMaxMinutes: Int) -> Duration {
        var total = attemptAllowance
        var waitMinutes = 2
        for retry in 0..<failures {
            if retry > 0 { waitMinutes = min(waitMinutes * 2, max(2, retryMaxMinutes)) }
            total += attemptAllowance + .seconds(Int64(min(waitMinutes, max(2, retryMaxMinutes)) - 2) * 60)
        }
        return total
    }

    /// When the platform terminated a run of the sender or of the 30-minute check.
    struct Stops {
        let sender: [Timestamp]
        let check: [Timestamp]
        init(_ backend: Backend) {
            sender = ScenarioSupport.terminationTimes(backend, function: SafeNSoundApp.processScheduledAlertsName)
            check = ScenarioSupport.terminationTimes(backend, function: SafeNSoundApp.checkMissedHeartbeatsName)
        }
    }

    /// The design's intervals and leases the allowance is made of (the scenario keeps its defaults).
    static let defaultConfiguration = SafeNSoundConfiguration()

    /// How much later an alert due at `due` and sent at `sent` may go out for the runs the
    /// platform terminated in between (docs/domain.md, "Function life cycle"): a sender run that
    /// died holding the alert's claim leaves it to a run after the claim's lease; a 30-minute check
    /// that died leaves what it would have scheduled to the next check.
    static func terminationAllowance(_ stops: Stops, due: Timestamp, sent: Timestamp) -> Duration {
        let configuration = defaultConfiguration
        let from = due - configuration.missedHeartbeatCheckInterval
        let senders = stops.sender.filter { $0 >= from && $0 <= sent }.count
        let checks = stops.check.filter { $0 >= from && $0 <= sent }.count
        return (configuration.alertClaimLease + attemptAllowance) * senders + (configuration.missedHeartbeatCheckInterval + attemptAllowance) * checks
    }

    /// One pass of the Always checks (see `Monitor`).
    static func checkState(
        monitor: Monitor, backend: Backend, log: SafeNSoundDeliveryLog, members: [String: Member], observed: Observed,
        retryMaxMinutes: Int, context: ScenarioContext
    ) {
        let firestore = backend.firestore
        let (accepted, paused, newlyPaused, registeredAt, abandonedAt, contactEdits) = observed.state.withLock { state in
            defer { state.acceptedSinceCheck = [] }
            return (state.acceptedSinceCheck.sorted().map { (user: $0, times: state.accepted[$0]!) }, state.pausedAt, state.pauseOrder,
                    state.tokenRegisteredAt, state.abandonedAt, state.contactEdits)
        }
        let checker = DeliveryChecker(
            firestore: firestore, members: members, paused: paused, registeredAt: registeredAt, abandonedAt: abandonedAt,
            contactEdits: contactEdits, stops: Stops(backend), retryMaxMinutes: retryMaxMinutes, context: context)
        monitor.state.withLock { s in
            checkAlertWindows(&s, firestore: firestore, context: context)
            checkRateLimit(&s, accepted: accepted, context: context)
            countCheckedDeliveries(&s, newlyPaused: newlyPaused, context: context)
            let fresh = log.deliveries(from: s.deliveryCursor)
            s.deliveryCursor += fresh.count
            for delivery in fresh { checker.check(delivery, &s) }
        }
    }

    /// one-alert-per-kind-per-window: reads the alerts created since the last pass and checks
    /// again only the windows that got a new one.
    private static func checkAlertWindows(_ s: inout Monitor.State, firestore: Firestore, context: ScenarioContext) {
        var changedKeys: Set<String> = []
        let created = firestore.insertedIds("scheduled_alerts", from: s.alertCursor)
        s.alertCursor += created.count
        for id in created where s.alerts[id] == nil {
            guard let alert = parseAlert(id: id, firestore.liveFields(DocumentPath("scheduled_alerts", id))) else { continue }
            s.alerts[id] = alert
            let key = "\(alert.userId)|\(alert.windowLastHeartbeat.unixNanoseconds)|\(alert.kind.rawValue)"
            s.perWindow[key, default: []].append(id)
            changedKeys.insert(key)
        }
        context.always(Check.oneAlertPerKindPerWindow, observations: s.perWindow.count - changedKeys.count, firstFailure: nil)
        for key in changedKeys.sorted() {
            let ids = s.perWindow[key]!
            context.always(Check.oneAlertPerKindPerWindow, ids.count <= 1, "\(ids.count) alerts \(ids.sorted()) for one window (\(key))")
        }
    }

    /// rate-limit-respected: checks again only the users with a newly accepted heartbeat.
    private static func checkRateLimit(
        _ s: inout Monitor.State, accepted: [(user: String, times: [Timestamp])], context: ScenarioContext
    ) {
        context.always(Check.rateLimitRespected, observations: s.totalPairs - accepted.reduce(0) { $0 + s.pairs[$1.user, default: 0] }, firstFailure: nil)
        for (user, heartbeats) in accepted {
            let times = heartbeats.sorted()
            for (earlier, later) in zip(times, times.dropFirst()) {
                context.always(Check.rateLimitRespected, later - earlier >= .seconds(60),
                               "\(user) had heartbeats accepted \(Double((later - earlier).nanoseconds) / 1e9) s apart (\(earlier) and \(later))")
            }
            s.totalPairs += max(0, times.count - 1) - s.pairs[user, default: 0]
            s.pairs[user] = max(0, times.count - 1)
        }
    }

    /// Counts the deliveries already checked: one observation each per pass (two for paused users).
    private static func countCheckedDeliveries(_ s: inout Monitor.State, newlyPaused: [String], context: ScenarioContext) {
        for user in newlyPaused[min(s.pauseCursor, newlyPaused.count)...] { s.pausedObservations += s.checkedPerUser[user, default: 0] }
        s.pauseCursor = newlyPaused.count
        context.always(Check.noDoubleSend, observations: s.checkedDeliveries, firstFailure: nil)
        context.always(Check.noAlertAfterCheckin, observations: s.checkedDeliveries + s.pausedObservations, firstFailure: nil)
        context.always(Check.alertOnTime, observations: s.checkedDeliveries, firstFailure: nil)
        context.always(Check.emailShowsLocalTime, observations: s.checkedEmails, firstFailure: nil)
    }
}
