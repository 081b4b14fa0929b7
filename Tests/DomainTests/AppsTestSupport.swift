@testable import Domain
@testable import SimulatedFirebase
import Synchronization

/// A clock that moves only when a test says so (sleeping jumps it to the deadline).
final class AppsManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex<Duration>(.zero)
    var now: Instant { Instant(offset: current.withLock { $0 }) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        current.withLock { $0 = max($0, deadline.offset) }
    }

    func advance(by duration: Duration) {
        precondition(duration >= .zero, "a test clock never goes backwards")
        current.withLock { $0 += duration }
    }

    func advance(to offset: Duration) {
        current.withLock { value in
            precondition(offset >= value, "a test clock never goes backwards")
            value = offset
        }
    }
}

/// A domain environment on a manual clock starting at `epochUnixSeconds`, with seeded randomness.
struct AppsTestEnvironment {
    let environment: DomainEnvironment
    let clock: AppsManualClock

    init(epochUnixSeconds: Int64 = 1_768_284_000, seed: UInt64 = 42) {
        let clock = AppsManualClock()
        self.clock = clock
        self.environment = DomainEnvironment(
            clock: DomainClock(clock, epochUnixNanoseconds: epochUnixSeconds * 1_000_000_000),
            executors: ConcurrentPoolExecutorSource(),
            random: SeededRandomSource(seed: seed))
    }

    var now: Timestamp { environment.clock.now }

    func advance(hours: Double) { clock.advance(by: .seconds(hours * 3600)) }
    func advance(minutes: Int) { clock.advance(by: .seconds(minutes * 60)) }
    /// Moves to `hours` after the epoch.
    func set(hours: Double) { clock.advance(to: .seconds(hours * 3600)) }
}

/// Suspends callers until `count` of them have arrived, then releases all: opens a race window on purpose.
actor AppsTestBarrier {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrived = 0

    init(count: Int) { self.count = count }

    func arrive() async {
        arrived += 1
        if arrived >= count {
            let released = waiting
            waiting = []
            for continuation in released { continuation.resume() }
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// A gate that holds the first caller until `open()`; later callers pass straight through.
actor AppsTestGate {
    private var held: CheckedContinuation<Void, Never>?
    private var used = false
    private(set) var isHolding = false
    private var opened = false

    func pass() async {
        if used || opened { return }
        used = true
        isHolding = true
        await withCheckedContinuation { held = $0 }
    }

    func open() {
        opened = true
        isHolding = false
        held?.resume()
        held = nil
    }

    /// Spins (yielding) until the first caller is held; bounded so a broken test fails rather than hangs.
    func waitUntilHolding() async -> Bool {
        for _ in 0..<100_000 {
            if isHolding { return true }
            await Task.yield()
        }
        return false
    }
}

/// A reference box so a probe closure can reach an object built after it.
final class AppsTestBox<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    var value: Value? {
        get { storage.withLock { $0 } }
    }
    func set(_ value: Value) { storage.withLock { $0 = value } }
}
