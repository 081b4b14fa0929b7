import Foundation

/// Who a REST request speaks for.
public enum RESTCredential: Sendable, Hashable {
    /// The emulator's owner: every request bypasses security rules (`Authorization: Bearer owner`).
    case owner
    /// An end user, as the emulator accepts one: an unsigned ID token carrying the uid and email.
    case user(uid: String, email: String?)
    /// An OAuth access token for a real project (`Authorization: Bearer <token>`).
    case accessToken(String)
    /// No credential: rules see `request.auth == null`.
    case anonymous

    /// The `Authorization` header's value, nil for `anonymous`.
    func header(project: String) -> String? {
        switch self {
        case .owner: "Bearer owner"
        case .user(let uid, let email): "Bearer " + Self.unsignedIdToken(uid: uid, email: email, project: project)
        case .accessToken(let token): "Bearer \(token)"
        case .anonymous: nil
        }
    }

    /// A JWT with `alg: none` and an empty signature, the form the Firestore emulator takes for a
    /// signed-in user. Fixed issue and expiry times (2001 to 2100): no wall clock is read.
    static func unsignedIdToken(uid: String, email: String?, project: String) -> String {
        let header: [String: Any] = ["alg": "none", "typ": "JWT"]
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/\(project)", "aud": project, "sub": uid, "user_id": uid,
            "iat": 1_000_000_000, "auth_time": 1_000_000_000, "exp": 4_102_444_800,
            "firebase": ["sign_in_provider": "custom", "identities": [String: Any]()],
        ]
        if let email { claims["email"] = email; claims["email_verified"] = true }
        return base64URL(header) + "." + base64URL(claims) + "."
    }

    private static func base64URL(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
