/// The signed-in caller of a client request or callable: Firebase Auth uid, email and role claim.
public struct AuthContext: Sendable, Hashable {
    /// A role as a custom claim; apps whose rules read roles from documents use `lookup` instead.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        case user, admin, superAdmin = "super-admin"
    }
    public let uid: String
    public let email: String?
    public let role: Role

    public init(uid: String, email: String? = nil, role: Role = .user) {
        precondition(!uid.isEmpty, "an authenticated caller needs a uid")
        self.uid = uid
        self.email = email
        self.role = role
    }
}
