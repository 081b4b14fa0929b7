import FirebaseHarness
import Harness
import SimulatedFirebase

/// The check of a scenario whose users only ever act within their own rights: the deployed
/// security rules never refuse a request the app makes for its signed-in user. A design whose
/// rules and client disagree (a rule that reads `resource` on create, a query the rules cannot
/// prove, a merge that leaves a map the rules reject) fails it with the user and the action.
enum RulesAllowTheApp {
    /// The declaration scenarios list.
    static let check = CheckDeclaration(
        .always, "rules-allow-the-app", "the deployed security rules never refuse a request the app makes for its signed-in user")

    /// Fails the check when `error` is the security rules refusing what `user` tried.
    static func judge(_ error: any Error, user: String, action: String, _ context: ScenarioContext) {
        let refused = BackendError.inside(error)?.code == "PERMISSION_DENIED"
        context.always(check, !refused, "\(user)'s \(action) was refused by the security rules: \(error)")
    }
}
