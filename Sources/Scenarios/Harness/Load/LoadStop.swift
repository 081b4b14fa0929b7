import Synchronization

/// Tells a running `LoadDriver` to stop early: no arrival and no VU iteration starts after it is
/// raised, and what is running gets a short drain instead of the graceful stop. Raised when the
/// real server under load stops answering.
final class LoadStop: Sendable {
    private let raised = Atomic<Bool>(false)
    /// Why, once raised.
    private let why = Mutex<(reason: String, nanoseconds: UInt64)?>(nil)

    /// Stops the load for `reason`, `nanoseconds` into it (the first reason wins).
    func raise(_ reason: String, atNanoseconds nanoseconds: UInt64) {
        why.withLock { $0 = $0 ?? (reason, nanoseconds) }
        raised.store(true, ordering: .releasing)
    }

    /// Whether the load must stop.
    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// The reason it was raised with and when, nil while it was not.
    var raisedWith: (reason: String, nanoseconds: UInt64)? { why.withLock { $0 } }
}
