import Domain
import SimulatedFirebase
import Synchronization

/// A test clock whose sleeps return at once after moving virtual time forward to their deadline,
/// so backoffs and trigger delays cost no real time and timestamps are exact in sequential tests.
struct JumpClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }
    final class Storage: Sendable { let now = Mutex<Duration>(.zero) }
    let storage = Storage()
    var now: Instant { Instant(offset: storage.now.withLock { $0 }) }
    var minimumResolution: Duration { .nanoseconds(1) }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        storage.now.withLock { $0 = max($0, deadline.offset) }
        await Task.yield()
    }
}

/// 2026-01-01T00:00:00Z
let testEpochUnixNanoseconds: Int64 = 1_767_225_600 * 1_000_000_000

func testEnvironment(seed: UInt64 = 1) -> DomainEnvironment {
    DomainEnvironment(
        clock: DomainClock(JumpClock(), epochUnixNanoseconds: testEpochUnixNanoseconds),
        executors: ConcurrentPoolExecutorSource(), random: SeededRandomSource(seed: seed))
}

func makeBackend(seed: UInt64 = 1, faults: BackendFaults = .none, rules: SecurityRules = .allowAll) -> Backend {
    let backend = Backend(env: testEnvironment(seed: seed), faults: faults)
    backend.setRules(rules)
    return backend
}

/// Runs `body` and returns the BackendError it throws (nil if none or another type).
func backendError(_ body: () async throws -> Void) async -> BackendError? {
    do { try await body(); return nil } catch { return BackendError.inside(error) }
}

/// A small deterministic generator for tests that must not depend on the simulator's streams.
struct TestGenerator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
