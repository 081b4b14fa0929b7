/// The signed-in caller of a client request or callable: Firebase Auth uid, email and role claim.
public struct AuthContext: Sendable, Hashable {
    /// A role as a custom claim; apps whose rules read roles from documents use `lookup` instead.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        case user, admin, superAdmin = "super-admin"
    }
    /// The Firebase Auth uid (never empty).
    public let uid: String
    /// The account's email, when the sign-in method gives one.
    public let email: String?
    /// The role custom claim.
    public let role: Role

    /// A signed-in caller; traps on an empty uid.
    public init(uid: String, email: String? = nil, role: Role = .user) {
        precondition(!uid.isEmpty, "an authenticated caller needs a uid")
        self.uid = uid
        self.email = email
        self.role = role
    }
}
