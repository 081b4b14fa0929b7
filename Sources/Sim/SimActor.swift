/// An actor that runs on the simulator: conform and declare
/// `nonisolated let simExecutor = SimExecutor("name")` — every hop to it becomes a scheduling point.
///
/// ```swift
/// actor Auction: SimActor {
///     nonisolated let simExecutor = SimExecutor("auction")
///     var highest = 0
///     func bid(_ amount: Int) -> Bool { … }
/// }
/// ```
public protocol SimActor: Actor {
    /// This actor's own executor; fixed for its lifetime.
    nonisolated var simExecutor: SimExecutor { get }
}

extension SimActor {
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        simExecutor.asUnownedSerialExecutor()
    }
}
