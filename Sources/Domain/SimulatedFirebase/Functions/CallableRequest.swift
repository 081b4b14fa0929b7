/// What an HTTPS callable receives: the caller's auth context (nil if signed out) and its data.
public struct CallableRequest: Sendable {
    /// The caller, nil when signed out.
    public let auth: AuthContext?
    /// The request body.
    public let data: Fields
    /// Server time the function started.
    public let time: Timestamp
}
