import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

extension HeartbeatTimelineScenario {
    /// One request a device makes against the security rules, and whether it must be allowed.
    ///
    /// The expected answers are this table, written from docs/domain.md ("SafeNSound security
    /// rules"), not computed by `SafeNSoundApp.securityRules`.
    enum RulesProbe: CaseIterable {
        case readOwnProfile, readOtherProfile, updateOwnLanguage, updateOtherLanguage, forgeOwnHeartbeat, writeHeartbeatDirectly

        /// Whether the careful rules allow it.
        var allowed: Bool {
            switch self {
            case .readOwnProfile, .updateOwnLanguage: return true
            case .readOtherProfile, .updateOtherLanguage, .forgeOwnHeartbeat, .writeHeartbeatDirectly: return false
            }
        }
    }

    /// Makes every `RulesProbe` from `uid`'s device and checks each answer against the table.
    /// A network failure or time-out says nothing about the rules and is skipped.
    static func probeRules(as uid: String, other: String, app: SafeNSoundApp, clock: DomainClock, context: ScenarioContext) async {
        let firestore = app.client(uid: uid).firestore
        for probe in RulesProbe.allCases {
            if probe == .readOtherProfile || probe == .updateOtherLanguage, other == uid { continue }
            let outcome: Result<Void, BackendError>
            do throws(BackendError) {
                switch probe {
                case .readOwnProfile: _ = try await firestore.get(DocumentPath("users", uid))
                case .readOtherProfile: _ = try await firestore.get(DocumentPath("users", other))
                case .updateOwnLanguage: _ = try await firestore.updateData(DocumentPath("users", uid), ["preferredLanguage": .set(.string("de"))])
                case .updateOtherLanguage: _ = try await firestore.updateData(DocumentPath("users", other), ["preferredLanguage": .set(.string("fr"))])
                case .forgeOwnHeartbeat:
                    // A check-in that skips the callable (its rate limit, its server-side record).
                    _ = try await firestore.updateData(DocumentPath("users", uid), ["lastHeartbeat": .set(.timestamp(clock.now))])
                case .writeHeartbeatDirectly:
                    _ = try await firestore.setData(DocumentPath("heartbeats", "\(uid)_forged"), ["userId": .string(uid), "timestamp": .timestamp(clock.now)])
                }
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            let allowed: Bool
            switch outcome {
            case .success: allowed = true
            case .failure(.permissionDenied): allowed = false
            case .failure: continue  // unavailable, time-out: the rules were not (visibly) consulted
            }
            context.note(uid, "rules: \(probe) \(allowed ? "allowed" : "denied")")
            if probe.allowed {
                context.always(Check.ownWritesAllowed, allowed, "\(uid)'s \(probe) was denied")
            } else {
                context.always(Check.rulesDenyForeignAccess, !allowed, "\(uid)'s \(probe) was allowed (other user \(other))")
            }
        }
    }
}
