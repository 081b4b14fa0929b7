/// What one simulated device's clock reads (MODEL_RULES §24; docs/domain.md, "Device clocks").
///
/// `now` is the device's `Date()`: the server's time plus the device's offset, which drifts (its
/// quartz runs a few parts per million fast or slow) and may jump once (a network time sync, after
/// which it drifts from the synced offset). `uptimeNanoseconds` is its monotonic clock
/// (`ProcessInfo.systemUptime`), which no offset or jump touches. The server's time is not the
/// device's to read: a design that needs it learns it (`ClientNetwork.serverTimeEstimate`) or
/// lets the server stamp the write (`FieldUpdate.serverTimestamp`).
public struct DeviceClock: Sendable {
    private let clock: DomainClock
    /// The offset until the jump (or for ever), in nanoseconds.
    public let initialOffsetNanoseconds: Int64
    /// Server-clock elapsed nanoseconds at which the clock jumps, and the offset after it (nil: never).
    public let jump: (atElapsedNanoseconds: Int64, offsetNanoseconds: Int64)?
    /// How fast the clock runs against the server's, in parts per million (negative: slow).
    public let driftPartsPerMillion: Double
    /// Server-clock elapsed nanoseconds at which the device appeared (its drift counts from there).
    private let appearedAtElapsedNanoseconds: Int64

    /// A clock `offset` nanoseconds off `clock`, jumping as `jump` says and drifting `drift` ppm.
    init(
        clock: DomainClock, offsetNanoseconds: Int64, jump: (atElapsedNanoseconds: Int64, offsetNanoseconds: Int64)?,
        driftPartsPerMillion: Double = 0
    ) {
        self.clock = clock
        self.initialOffsetNanoseconds = offsetNanoseconds
        self.jump = jump
        self.driftPartsPerMillion = driftPartsPerMillion
        self.appearedAtElapsedNanoseconds = clock.elapsedNanoseconds
    }

    /// The device's clock drawn for one device from `random` (its own stream), counted in `ledger`.
    init(clock: DomainClock, faults: BackendFaults, random: SharedRandom, ledger: FaultLedger) {
        let offProbability = faults.deviceClockOffProbability
        let jumpProbability = faults.deviceClockJumpProbability
        // Every draw is made whatever the outcome, so a device's stream does not depend on it.
        let isOff = random.chance(offProbability)
        let isFarOff = random.chance(faults.deviceClockFarOffShare)
        let magnitude = random.unitInterval()
        let sign: Int64 = random.chance(0.5) ? -1 : 1
        let synced = Self.synced(faults.deviceClockSyncedSpread, random)
        let jumps = random.chance(jumpProbability)
        let jumpAt = random.duration(upTo: faults.deviceClockJumpWithin).nanoseconds
        let afterJump = Self.synced(faults.deviceClockSyncedSpread, random)
        let drift = (2 * random.unitInterval() - 1) * faults.deviceClockDriftMaxPartsPerMillion
        var offset = synced
        if isOff {
            let lower = Double(faults.deviceClockSyncedSpread.nanoseconds) * 2
            let upper = Double((isFarOff ? faults.deviceClockFarOffMax : faults.deviceClockOffMax).nanoseconds)
            offset = sign * Int64(lower + (max(upper, lower) - lower) * magnitude)
        }
        ledger.opportunity(.deviceClockOff, probability: offProbability)
        ledger.opportunity(.deviceClockJump, probability: jumpProbability)
        if isOff { ledger.observe(.deviceClockOff, subject: "offset \(offset / 1_000_000) ms") }
        if jumps { ledger.observe(.deviceClockJump, subject: "at \(jumpAt / 1_000_000_000) s to \(afterJump / 1_000_000) ms") }
        let now = clock.elapsedNanoseconds
        self.init(clock: clock, offsetNanoseconds: offset, jump: jumps ? (now + jumpAt, afterJump) : nil, driftPartsPerMillion: drift)
    }

    /// Uniform in ±`spread`.
    private static func synced(_ spread: Duration, _ random: SharedRandom) -> Int64 {
        let width = spread.nanoseconds
        return random.duration(upTo: .nanoseconds(2 * width)).nanoseconds - width
    }

    /// The offset from the server's time now, in nanoseconds: the last set offset plus the drift
    /// since it was set.
    public var offsetNanoseconds: Int64 {
        let elapsed = clock.elapsedNanoseconds
        let (base, since) = jump.flatMap { elapsed >= $0.atElapsedNanoseconds ? ($0.offsetNanoseconds, $0.atElapsedNanoseconds) : nil }
            ?? (initialOffsetNanoseconds, appearedAtElapsedNanoseconds)
        return base + Int64((Double(elapsed - since) * driftPartsPerMillion / 1e6).rounded())
    }

    /// The device's `Date()`: what it believes the time is.
    public var now: Timestamp { Timestamp(unixNanoseconds: clock.nowUnixNanoseconds + offsetNanoseconds) }

    /// The device's monotonic clock (nanoseconds since the simulation's zero; unaffected by offsets and jumps).
    public var uptimeNanoseconds: Int64 { clock.elapsedNanoseconds }
}
