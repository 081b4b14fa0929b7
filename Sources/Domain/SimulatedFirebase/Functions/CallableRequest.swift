/// What an HTTPS callable receives: the caller's auth context (nil if signed out) and its data.
public struct CallableRequest: Sendable {
    /// The caller, nil when signed out.
    public let auth: AuthContext?
    /// The request body.
    public let data: Fields
    /// Server time the function started.
    public let time: Timestamp
    /// Whether the call carried a valid App Check token (`request.app` is set); a callable that
    /// enforces App Check never sees one without.
    public var appCheckVerified = false
}
