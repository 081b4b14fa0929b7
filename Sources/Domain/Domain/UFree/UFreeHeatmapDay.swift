import SimulatedFirebase

/// One day of the "Who's free on…" heatmap.
public struct UFreeHeatmapDay: Sendable, Equatable {
    /// The day this cell counts.
    public var day: UFreeDay
    /// Friends free all day.
    public var freeCount: Int
    /// Friends free in the morning, afternoon or evening only.
    public var partlyFreeCount: Int
}
