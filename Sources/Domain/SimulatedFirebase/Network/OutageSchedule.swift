import Synchronization

/// The outages of one service over one run, generated lazily in virtual time from the service's
/// own random stream (`outage/<service>`), so a run without outages draws nothing and a run with
/// them draws the same windows whatever else happens. Each minute slot is one chance of an outage
/// start in the fault ledger (`outage`), so starts are observed against expected exactly.
final class OutageSchedule: Sendable {
    let outage: Outage
    private let random: SharedRandom
    private let ledger: FaultLedger
    private struct State {
        /// Minute slots generated so far (slots 0..<generated).
        var generated: Int64 = 0
        /// Outage windows in nanoseconds since the clock's zero, in time order.
        var windows: [(start: Int64, end: Int64)] = []
    }
    private let state = Mutex(State())
    private static let minute: Int64 = 60_000_000_000

    init(_ outage: Outage, env: DomainEnvironment, ledger: FaultLedger) {
        self.outage = outage
        self.random = SharedRandom(env, stream: "outage/\(outage.service.rawValue)")
        self.ledger = ledger
        if outage.startsDown {
            let length = Self.length(outage, random)
            state.withLock { $0.windows.append((0, length)) }
            ledger.opportunity(.outage, probability: 1)  // given, not drawn: counted so observed matches expected
            ledger.observe(.outage, subject: "\(outage.service.rawValue) down at the start for \(length / 1_000_000_000) s")
        }
    }

    /// Whether the service is down at `elapsed` nanoseconds since the clock's zero.
    func isDown(atElapsed elapsed: Int64) -> Bool {
        let slot = max(0, elapsed) / Self.minute
        generate(through: slot)
        return state.withLock { state in state.windows.contains { $0.start <= elapsed && elapsed < $0.end } }
    }

    /// The windows drawn so far that start at or before `elapsed`, generating through it.
    func windows(through elapsed: Int64) -> [(start: Int64, end: Int64)] {
        generate(through: max(0, elapsed) / Self.minute)
        return state.withLock { state in state.windows.filter { $0.start <= elapsed } }
    }

    /// Draws the minute slots up to `slot`: one start chance per slot that no outage covers.
    private func generate(through slot: Int64) {
        let probability = min(1, outage.startsPerHour / 60)
        while true {
            let next: Int64? = state.withLock { state in
                guard state.generated <= slot else { return nil }
                defer { state.generated += 1 }
                let start = state.generated * Self.minute
                return state.windows.contains { $0.start <= start && start < $0.end } ? -1 : start
            }
            guard let start = next else { return }
            guard start >= 0, probability > 0 else { continue }
            ledger.opportunity(.outage, probability: probability)
            guard random.chance(probability) else { continue }
            let length = Self.length(outage, random)
            state.withLock { $0.windows.append((start, start + length)) }
            ledger.observe(.outage, subject: "\(outage.service.rawValue) down at minute \(start / Self.minute) for \(length / 1_000_000_000) s")
        }
    }

    private static func length(_ outage: Outage, _ random: SharedRandom) -> Int64 {
        let shortest = outage.shortest.nanoseconds, longest = outage.longest.nanoseconds
        guard longest > shortest else { return shortest }
        return shortest + Int64(random.unitInterval() * Double(longest - shortest))
    }
}

/// A backend's outage schedules by service (empty when the run draws none).
public final class Outages: Sendable {
    private let schedules: [Outage.Service: OutageSchedule]

    init(_ outages: [Outage], env: DomainEnvironment, ledger: FaultLedger) {
        var schedules: [Outage.Service: OutageSchedule] = [:]
        for outage in outages.sorted(by: { $0.service < $1.service }) where schedules[outage.service] == nil {
            schedules[outage.service] = OutageSchedule(outage, env: env, ledger: ledger)
        }
        self.schedules = schedules
    }

    /// `base` at `elapsed`, or the outage's severity when `service` is down then (whichever is larger).
    package func probability(_ base: Double, of service: Outage.Service, atElapsed elapsed: @autoclosure () -> Int64) -> Double {
        guard let schedule = schedules[service], schedule.isDown(atElapsed: elapsed()) else { return base }
        return max(base, schedule.outage.severity)
    }

    /// When `service` was down, as nanoseconds since the clock's zero, for windows starting by
    /// `elapsed` (empty when the run has no outage of it): what checks allow for, not what the
    /// design may read.
    public func windows(of service: Outage.Service, through elapsed: Int64) -> [(start: Int64, end: Int64)] {
        schedules[service]?.windows(through: elapsed) ?? []
    }

    /// The slow-down factor of client latency at `elapsed` (1 outside a slow-network outage).
    func latencyScale(atElapsed elapsed: @autoclosure () -> Int64) -> Double {
        guard let schedule = schedules[.slowNetwork], schedule.isDown(atElapsed: elapsed()) else { return 1 }
        return schedule.outage.latencyScale
    }
}
