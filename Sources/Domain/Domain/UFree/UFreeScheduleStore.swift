import SimulatedFirebase

/// One device's local store of its friends' schedules (the seed's SwiftData repository: "UI →
/// ViewModel → CompositeRepository → SwiftData [instant]", "Local Persistence (SwiftData) …
/// upsert pattern"): a row per friend and day, written one upsert at a time, and a version that
/// every upsert advances, so a reader can tell which state of the store it computed from.
actor UFreeScheduleStore: DomainActor {
    nonisolated let executor: any SerialExecutor
    /// friend id → day key → status (nil rows are absent).
    private var rows: [String: [UFreeDay: UFreeAvailabilityStatus]] = [:]
    private(set) var version = 0

    init(env: DomainEnvironment, label: String) {
        executor = env.makeExecutor(label: "swiftdata/\(label)")
    }

    /// Inserts, replaces or (with `status` nil) deletes one row; advances the version.
    func upsert(_ row: UFreeFriendsSchedule.Row) {
        rows[row.friendId, default: [:]][row.day] = row.status
        version += 1
    }

    /// The rows, sorted by friend then day.
    var allRows: [UFreeFriendsSchedule.Row] {
        rows.keys.sorted().flatMap { friendId in
            rows[friendId, default: [:]].sorted { $0.key < $1.key }.map { UFreeFriendsSchedule.Row(friendId: friendId, day: $0.key, status: $0.value) }
        }
    }

    /// The heatmap of `days` over the store's rows, with the version it was computed at.
    func heatmap(days: [UFreeDay]) -> (days: [UFreeHeatmapDay], version: Int) {
        var counts = days.map { UFreeHeatmapDay(day: $0, freeCount: 0, partlyFreeCount: 0) }
        for friendId in rows.keys.sorted() {
            let schedule = rows[friendId, default: [:]]
            for index in counts.indices {
                guard let status = schedule[counts[index].day] else { continue }
                if status == .free { counts[index].freeCount += 1 }
                if status.isPartlyFree { counts[index].partlyFreeCount += 1 }
            }
        }
        return (counts, version)
    }
}
