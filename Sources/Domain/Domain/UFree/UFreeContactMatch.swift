import SimulatedFirebase

/// One entry of the caller's address book that contact discovery matched to a UFree user.
public struct UFreeContactMatch: Sendable, Hashable {
    /// The entry as the address book holds it.
    public let entry: String
    /// The UFree user whose number it is.
    public let userId: String
}
