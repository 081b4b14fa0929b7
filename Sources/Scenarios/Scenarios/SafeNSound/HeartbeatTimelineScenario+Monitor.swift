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
        let stops = Stops(backend)
        monitor.state.withLock { s in
            // one-alert-per-kind-per-window: windows with a new alert are checked again.
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

            // rate-limit-respected: users with a newly accepted heartbeat are checked again.
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

            // Deliveries already checked: one observation each per pass (two for paused users).
            for user in newlyPaused[min(s.pauseCursor, newlyPaused.count)...] { s.pausedObservations += s.checkedPerUser[user, default: 0] }
            s.pauseCursor = newlyPaused.count
            context.always(Check.noDoubleSend, observations: s.checkedDeliveries, firstFailure: nil)
            context.always(Check.noAlertAfterCheckin, observations: s.checkedDeliveries + s.pausedObservations, firstFailure: nil)
            context.always(Check.alertOnTime, observations: s.checkedDeliveries, firstFailure: nil)
            context.always(Check.emailShowsLocalTime, observations: s.checkedEmails, firstFailure: nil)

            let fresh = log.deliveries(from: s.deliveryCursor)
            s.deliveryCursor += fresh.count
            for delivery in fresh {
                let message = delivery.message
                guard let alert = s.alerts[message.alertId], let member = members[message.userId] else { continue }
                let attemptKey = message.alertId
                guard delivery.delivered else { s.failures[attemptKey, default: 0] += 1; continue }
                s.checkedDeliveries += 1
                s.checkedPerUser[member.userId, default: 0] += 1
                let retried = s.failures[attemptKey, default: 0] > 0
                context.sometimes(Check.emailRetried, retried)
                let key = "\(alert.userId)|\(alert.windowLastHeartbeat.unixNanoseconds)|\(alert.kind.rawValue)|\(message.recipient)"
                let afterTimeOut = s.unconfirmed.contains(key)
                if delivery.timedOut { s.unconfirmed.insert(key) } else { s.unconfirmed.remove(key) }
                let reachedBefore = s.reachedByAlert[attemptKey, default: []]
                if retried, !reachedBefore.isEmpty, !reachedBefore.contains(message.recipient) {
                    context.sometimes(Check.retrySkipsDeliveredContacts, true)
                }
                s.reachedByAlert[attemptKey, default: []].insert(message.recipient)
                s.sent[key, default: 0] += 1
                if afterTimeOut { context.sometimes(Check.resentAfterTimeout, true) }
                let sentCount = s.sent[key]!
                context.always(Check.noDoubleSend, sentCount <= 1 || afterTimeOut,
                               "\(message.channel.rawValue) for \(member.userId)'s window of \(alert.windowLastHeartbeat) (\(alert.kind.rawValue)) reached \(message.recipient) \(sentCount) times")
                // A check-in closes a window when it *commits* (the heartbeat record's update time), not at
                // the request's server time it carries: a sender whose re-read was served before the commit
                // cannot have seen it (seed 602: request at …159.7 ms, re-read and email at …176.5 ms,
                // commit at …184.2 ms). The careful design writes the record in the check-in's transaction,
                // so its update time is the commit of the new lastHeartbeat.
                let d = delivery.startedAt
                let committed = firestore.query("heartbeats", whereField: "userId", isEqualTo: .string(message.userId)).compactMap { snapshot in
                    snapshot["timestamp"]?.timestampValue.map { (heartbeat: $0, commit: snapshot.updateTime) }
                }
                let closedBy = committed.filter { $0.heartbeat > alert.windowLastHeartbeat && $0.commit < d }.min { $0.commit < $1.commit }
                context.always(Check.noAlertAfterCheckin, closedBy == nil,
                               "\(alert.kind.rawValue) for \(member.userId) sent at \(d) though a check-in at \(closedBy.map { "\($0.heartbeat) (committed \($0.commit))" } ?? "-") closed its window")
                if let abandoned = abandonedAt[message.userId] {
                    // The abandoned account is the onboarding uid; a send the sender re-checked before
                    // the new account's onboarding committed may still start within one attempt.
                    context.always(Check.noAlertForAbandonedAccount, d <= abandoned + attemptAllowance,
                                   "\(alert.kind.rawValue) for abandoned account \(message.userId) sent at \(d) to \(message.recipient), though the person reinstalled at \(abandoned) and checks in as \(member.reinstalledUserId)")
                }
                if let pause = paused[member.userId] {
                    s.pausedObservations += 1
                    context.always(Check.noAlertAfterCheckin, d <= pause, "\(alert.kind.rawValue) for \(member.userId) sent at \(d) though monitoring was paused at \(pause)")
                }
                let emailDue = alert.windowLastHeartbeat + .seconds(Int64(member.thresholdHours) * 3600)
                let due = alert.kind == .emailAlert ? emailDue : emailDue - .seconds(Int64(min(leadHours, member.thresholdHours)) * 3600)
                // A push to a token the app registered after the due time (FCM had rejected the old
                // one) can only start once the app registered it.
                let ready = message.channel == .push ? max(due, registeredAt[message.recipient] ?? due) : due
                let latest = ready + retryAllowance(failures: s.failures[attemptKey, default: 0], retryMaxMinutes: retryMaxMinutes) + slack
                    + terminationAllowance(stops, due: due, sent: d)
                if message.channel == .email, s.failures[attemptKey, default: 0] >= 3 { context.sometimes(Check.emailSentAfterOutage, true) }
                context.always(Check.alertOnTime, d >= due && d <= latest,
                               "\(alert.kind.rawValue) for \(member.userId) (\(member.thresholdHours) h, \(member.timeZone)) due \(due) went out at \(d): \(d < due ? "early" : "late") by \(Double(((d < due) ? due - d : d - due).nanoseconds) / 60e9) min")
                if alert.kind == .emailAlert {
                    // email-to-current-contacts: the list in force a minute before the send, or any set since.
                    let edits = contactEdits[member.userId] ?? []
                    let window = d - slack
                    let before = edits.last { $0.at <= window }?.contacts ?? member.contacts
                    let allowed = Set(before + edits.filter { $0.at > window && $0.at <= d }.flatMap(\.contacts))
                    context.always(Check.emailToCurrentContacts, allowed.contains(message.recipient),
                                   "email for \(member.userId) sent at \(d) to \(message.recipient), not on their contact list then \(allowed.sorted())")
                    if !member.contacts.contains(message.recipient) { context.sometimes(Check.emailToEditedContact, true) }
                    s.checkedEmails += 1
                    let verdict = emailShowsLocalTime(body: message.body, lastCheckIn: alert.windowLastHeartbeat, timeZone: member.timeZone)
                    context.always(Check.emailShowsLocalTime, verdict.holds,
                                   "email for \(member.userId) (\(member.timeZone)) says \"\(message.body)\", expected last check-in \"\(verdict.expected)\"")
                    if crossesDST(from: alert.windowLastHeartbeat, to: emailDue, timeZone: member.timeZone) { context.sometimes(Check.dstWindowEmailed, true) }
                }
                if delivery.timedOut { s.failures[attemptKey, default: 0] += 1 }  // the retry gets one more attempt's allowance
            }
        }
    }
}
