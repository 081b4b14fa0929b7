/// Decides whether one client write may commit, given the document before and after it.
/// `nil` stands for the admin SDK, which bypasses security rules.
public typealias Authorizer = @Sendable (_ path: DocumentPath, _ before: Fields?, _ after: Fields?) -> Bool

/// The rule operation a write amounts to, from its before/after states.
func ruleOperation(before: Fields?, after: Fields?) -> RuleOperation {
    switch (before, after) {
    case (nil, _?): return .create
    case (_?, nil): return .delete
    default: return .update
    }
}
