@testable import Domain
import Testing

/// The who's-free badge over the phone's store (`UFreeFriendsSchedule`): a refresh fills the store
/// and the badge, and a refresh that cannot read gives up after its three attempts.
@Suite struct UFreeFriendsScheduleTests {
    private let days = [UFreeDay(year: 2026, month: 1, day: 14), UFreeDay(year: 2026, month: 1, day: 15)]

    /// A viewer `v` with friends `f1`, `f2` (admin writes, so a failing network does not stop the set-up).
    private func setUp(_ backend: Backend) async throws -> UFreeApp {
        let app = UFreeApp(backend: backend)
        _ = try await backend.firestore.set(DocumentPath("users", "v"), ["friendIds": .array([.string("f1"), .string("f2")])])
        for (friend, statuses) in [("f1", [UFreeAvailabilityStatus.free, .busy]), ("f2", [.morningOnly, .free])] {
            for (day, status) in zip(days, statuses) {
                _ = try await backend.firestore.set(DocumentPath("users", friend).child("availability", day.key), ["status": .int(Int64(status.rawValue))])
            }
        }
        return app
    }

    @Test func aRefreshFillsTheStoreAndTheBadge() async throws {
        let backend = makeBackend()
        let screen = try await setUp(backend).friendsSchedule(userId: "v", device: "v/phone")
        let rows = try await screen.refresh(days: days)
        await screen.settle()
        #expect(rows.count == 4)
        #expect(await screen.storedRows == rows)
        let badge = await screen.badge
        #expect(badge.map(\.freeCount) == [1, 1] && badge.map(\.partlyFreeCount) == [1, 0])
    }

    /// Every read fails (UNAVAILABLE): three attempts a friend's query, then the refresh throws
    /// and the store stays empty (it retried UNAVAILABLE without limit once: on the jump clock that
    /// never returns, hence a time limit — a generous one: under `swift test --parallel` on a loaded
    /// 2-core machine a trivial test can wait minutes for a thread, and one minute failed there).
    @Test(.timeLimit(.minutes(10))) func aRefreshThatCannotReadGivesUpAfterThreeAttempts() async throws {
        var faults = BackendFaults.none
        faults.networkFailureProbability = 1
        let backend = makeBackend(faults: faults)
        let screen = try await setUp(backend).friendsSchedule(userId: "v", device: "v/phone")
        await #expect(throws: UFreeError.self) { try await screen.refresh(days: days) }
        await screen.settle()
        #expect(await screen.storedRows.isEmpty)
        #expect(await screen.badge.isEmpty)
    }
}
