/// A timing window as `--timing-window` takes it: timers due this close together are ordered by
/// the strategy.
struct TimingWindow: Hashable {
    /// The window.
    var nanoseconds: UInt64
    /// The widest window accepted (a minute: wider would reorder unrelated events).
    static let maximumNanoseconds: UInt64 = 60_000_000_000
}
