import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

// heartbeat-timeline's check for its load profile, judged as each check-in answers: what each
// user was told was accepted.
extension LoadProfile {
    /// The heartbeat times each user was told were recorded.
    final class AcceptedHeartbeats: Sendable {
        private let times = Mutex<[String: [Timestamp]]>([:])

        /// Records `time` for `user` and returns the accepted times it is closer than `spacing` to.
        func accept(_ time: Timestamp, of user: String, spacing: Duration) -> [Timestamp] {
            times.withLock { table in
                let close = table[user, default: []].filter { max(time - $0, $0 - time) < spacing }
                table[user, default: []].append(time)
                return close
            }
        }
    }

    /// One check-in of `user` answered `response`: no other heartbeat of theirs accepted within
    /// the minimum spacing.
    static func judgeHeartbeat(_ response: SafeNSoundHeartbeatResponse, of user: String, accepted: AcceptedHeartbeats, spacing: Duration, _ checks: LoadCheckLog) {
        let close = accepted.accept(response.lastHeartbeat, of: user, spacing: spacing)
        checks.always(HeartbeatTimelineScenario.Check.rateLimitRespected, failure: close.isEmpty ? nil
            : "\(user) had heartbeats accepted at \(response.lastHeartbeat) and \(close[0]), less than \(spacing) apart")
    }
}
