/// One day of the "Who's free on…" heatmap.
public struct UFreeHeatmapDay: Sendable, Equatable {
    public var day: UFreeDay
    public var freeCount: Int
    public var partlyFreeCount: Int
}
