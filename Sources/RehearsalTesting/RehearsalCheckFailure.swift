/// Thrown by `Rehearsal.check` when a condition does not hold: the run ends as a failure whose
/// message is this one (a sweep's failing runs are the runs whose body threw or did not finish).
public struct RehearsalCheckFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What did not hold.
    public var message: String

    /// A failed check saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
