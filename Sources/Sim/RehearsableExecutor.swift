/// Makes the executor of a `RehearsableActor`: the running simulation's (`SimExecutor`) on a
/// simulation's thread, otherwise a production serial executor (`QueueExecutor`).
public enum RehearsableExecutor {
    /// An executor for one actor labelled `label` (its name in traces).
    public static func make(_ label: String) -> any SerialExecutor {
        Simulation.isActive ? SimExecutor(label) : QueueExecutor(label: label)
    }
}
