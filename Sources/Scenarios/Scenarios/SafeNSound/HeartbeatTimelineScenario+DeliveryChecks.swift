import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

extension HeartbeatTimelineScenario {
    /// The Always and Sometimes checks of one new delivery, on what the users observed when the
    /// pass began; the running state is the monitor's, updated in log order.
    struct DeliveryChecker {
        let firestore: Firestore
        let members: [String: Member]
        let paused: [String: Timestamp]
        let registeredAt: [String: Timestamp]
        let abandonedAt: [String: Timestamp]
        let contactEdits: [String: [(at: Timestamp, contacts: [String])]]
        let stops: Stops
        let retryMaxMinutes: Int
        let context: ScenarioContext

        /// Checks one delivery; a failed attempt only adds to its alert's failures.
        func check(_ delivery: SafeNSoundDeliveryLog.Delivery, _ s: inout Monitor.State) {
            let message = delivery.message
            guard let alert = s.alerts[message.alertId], let member = members[message.userId] else { return }
            let attemptKey = message.alertId
            guard delivery.delivered else { s.failures[attemptKey, default: 0] += 1; return }
            s.checkedDeliveries += 1
            s.checkedPerUser[member.userId, default: 0] += 1
            checkSendCount(delivery, alert: alert, member: member, &s)
            checkNotAfterCheckIn(delivery, alert: alert, member: member, &s)
            let emailDue = alert.windowLastHeartbeat + .seconds(Int64(member.thresholdHours) * 3600)
            checkOnTime(delivery, alert: alert, member: member, emailDue: emailDue, s)
            if alert.kind == .emailAlert { checkEmail(delivery, alert: alert, member: member, emailDue: emailDue, &s) }
            if delivery.timedOut { s.failures[attemptKey, default: 0] += 1 }  // the retry gets one more attempt's allowance
        }

        /// no-double-send: a window reaches a recipient once, unless the earlier send timed out
        /// (at-least-once); also the retry goals.
        private func checkSendCount(
            _ delivery: SafeNSoundDeliveryLog.Delivery, alert: SeenAlert, member: Member, _ s: inout Monitor.State
        ) {
            let message = delivery.message
            let attemptKey = message.alertId
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
        }

        /// no-alert-after-checkin and no-alert-for-abandoned-account: nothing goes out once a
        /// check-in closed the window, the account was abandoned or monitoring was paused.
        private func checkNotAfterCheckIn(
            _ delivery: SafeNSoundDeliveryLog.Delivery, alert: SeenAlert, member: Member, _ s: inout Monitor.State
        ) {
            let message = delivery.message
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
        }

        /// alert-on-time: not before the alert is due, and no later than the allowance for the
        /// failed attempts and terminated runs in between.
        private func checkOnTime(
            _ delivery: SafeNSoundDeliveryLog.Delivery, alert: SeenAlert, member: Member, emailDue: Timestamp, _ s: Monitor.State
        ) {
            let message = delivery.message
            let attemptKey = message.alertId
            let d = delivery.startedAt
            let due = alert.kind == .emailAlert ? emailDue : emailDue - .seconds(Int64(min(leadHours, member.thresholdHours)) * 3600)
            // A push to a token the app registered after the due time (FCM had rejected the old
            // one) can only start once the app registered it.
            let ready = message.channel == .push ? max(due, registeredAt[message.recipient] ?? due) : due
            let latest = ready + retryAllowance(failures: s.failures[attemptKey, default: 0], retryMaxMinutes: retryMaxMinutes) + slack
                + terminationAllowance(stops, due: due, sent: d)
            if message.channel == .email, s.failures[attemptKey, default: 0] >= 3 { context.sometimes(Check.emailSentAfterOutage, true) }
            context.always(Check.alertOnTime, d >= due && d <= latest,
                           "\(alert.kind.rawValue) for \(member.userId) (\(member.thresholdHours) h, \(member.timeZone)) due \(due) went out at \(d): \(d < due ? "early" : "late") by \(Double(((d < due) ? due - d : d - due).nanoseconds) / 60e9) min")
        }

        /// email-to-current-contacts and email-shows-local-time, with the contact-edit and DST goals.
        private func checkEmail(
            _ delivery: SafeNSoundDeliveryLog.Delivery, alert: SeenAlert, member: Member, emailDue: Timestamp, _ s: inout Monitor.State
        ) {
            let message = delivery.message
            let d = delivery.startedAt
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
    }
}
