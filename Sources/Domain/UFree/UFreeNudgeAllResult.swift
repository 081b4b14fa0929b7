/// The outcome of "Nudge All": who was nudged and who failed (and why).
public struct UFreeNudgeAllResult: Sendable, Equatable {
    /// One friend the batch could not nudge.
    public struct Failure: Sendable, Equatable {
        public var friendId: String
        public var error: UFreeError
    }
    public var nudgedFriendIds: [String] = []
    public var failures: [Failure] = []
    /// Friends whose status on the day could not be read: not nudged (free or not is unknown).
    public var unreadable: [Failure] = []
}
