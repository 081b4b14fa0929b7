/// What an HTTPS callable receives: the caller's auth context (nil if signed out) and its data.
public struct CallableRequest: Sendable {
    public let auth: AuthContext?
    public let data: Fields
    /// Server time the function started.
    public let time: Timestamp
}
