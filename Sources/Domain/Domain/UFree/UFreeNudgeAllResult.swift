import SimulatedFirebase

/// The outcome of "Nudge All": who was nudged and who failed (and why).
public struct UFreeNudgeAllResult: Sendable, Equatable {
    /// One friend the batch could not nudge.
    public struct Failure: Sendable, Equatable {
        /// The friend Nudge All could not nudge or read.
        public var friendId: String
        /// Why.
        public var error: UFreeError
    }
    /// Friends nudged, in id order.
    public var nudgedFriendIds: [String] = []
    /// Free friends whose nudge failed.
    public var failures: [Failure] = []
    /// Friends whose status on the day could not be read: not nudged (free or not is unknown).
    public var unreadable: [Failure] = []
}
