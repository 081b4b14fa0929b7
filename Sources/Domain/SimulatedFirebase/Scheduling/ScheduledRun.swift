/// One run of a scheduled function: the tick it belongs to and why it runs.
public struct ScheduledRun: Sendable, Hashable {
    /// The scheduled function's name.
    public let name: String
    /// The nominal tick time (the cron instant), not the jittered start.
    public let scheduledTime: Timestamp
    /// 1 for the first run of a tick; 2 for a deadline retry overlapping the first.
    public let attempt: Int
    /// True for an at-least-once duplicate of the tick (~7 s later).
    public let isDuplicate: Bool

    /// One run of `name` for the tick at `scheduledTime`.
    public init(name: String, scheduledTime: Timestamp, attempt: Int = 1, isDuplicate: Bool = false) {
        self.name = name
        self.scheduledTime = scheduledTime
        self.attempt = attempt
        self.isDuplicate = isDuplicate
    }

    /// Deterministic id of the tick (shared by its duplicates and retries).
    public var tickId: String { "\(name)@\(scheduledTime.unixNanoseconds)" }
}
