import SimulatedFirebase

/// What one contact-discovery request returned.
public struct UFreeDiscoveryResult: Sendable, Hashable {
    /// The entries found, in request order.
    public let matches: [UFreeContactMatch]
    /// Entries the server did not look up because the caller's daily lookup quota ran out.
    public let unanswered: Int
}
