@testable import Domain
@testable import SimulatedFirebase
import Synchronization
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

    /// Every read fails (UNAVAILABLE): three attempts at the first friend's query, then the refresh
    /// throws and the store stays empty. It once retried UNAVAILABLE without limit, which on the jump
    /// clock never returns: the test watches the failure count, not the wall clock (a time limit
    /// failed under `swift test --parallel` on a loaded machine), and gives up past 30 failures.
    @Test func aRefreshThatCannotReadGivesUpAfterThreeAttempts() async throws {
        var faults = BackendFaults.none
        faults.networkFailureProbability = 1
        let backend = makeBackend(faults: faults)
        let screen = try await setUp(backend).friendsSchedule(userId: "v", device: "v/phone")
        let refresh = Task { () -> Bool in
            do { try await screen.refresh(days: days); return false } catch { return true }
        }
        let failures = { backend.faultLedger.tallies[.networkFailure]?.observed ?? 0 }
        let finished = Mutex(false)
        Task { _ = await refresh.value; finished.withLock { $0 = true } }
        while !finished.withLock({ $0 }) && failures() <= 30 { await Task.yield() }
        #expect(finished.withLock { $0 }, "still retrying after \(failures()) network failures")
        guard finished.withLock({ $0 }) else { return }  // leaves the runaway refresh behind, but fails
        #expect(await refresh.value, "a refresh whose reads all fail must throw")
        #expect(failures() == 3)
        await screen.settle()
        #expect(await screen.storedRows.isEmpty)
        #expect(await screen.badge.isEmpty)
    }
}
