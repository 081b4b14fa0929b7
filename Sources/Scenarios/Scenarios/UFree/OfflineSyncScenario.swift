import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// UFree offline-first: each user has a phone and a tablet that edit the same few days, drop
/// offline and come back over virtual time; edits apply locally at once, queue while offline and
/// sync on reconnect, where the careful rules reject a write older than the server's day.
public struct OfflineSyncScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .offlineSync }
    /// The name `rehearse` takes.
    public let name = "offline-sync"
    /// One line for `rehearse list`.
    public let summary = "UFree two devices per user editing offline, syncing on reconnect, rolling back rejected writes"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users, Parameter.editsPerDevice, Parameter.durationSeconds, Parameter.offlinePercent, Parameter.days,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["edit"]
    /// The variants it should catch.
    public let variants = [UFreeVariant.lastArrivalWins.rawValue, UFreeVariant.deviceClockStamps.rawValue]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.newestEditWins, Check.cachesMatchServer, Check.uiShowsRealStates, Check.offlineWriteRejected,
    ]

    /// The device names of each user.
    static let deviceNames = ["phone", "tablet"]
    /// Edits of one day on two devices closer than this in real time are concurrent: either may
    /// win. A device orders its edits by the server's time as its quickest answer carried it, which
    /// lags by that answer's return leg (tail: 3 s; docs/scenarios.md, "offline-sync"): 5 s, or the
    /// tail slowed by the world's slow-network outages (1 + 9 × severity) and 2 s more.
    static func concurrentEditsNanoseconds(_ faults: BackendFaults) -> Int64 {
        let slowest = faults.outages.filter { $0.service == .slowNetwork }.map(\.latencyScale).max() ?? 1
        let slowedTail = Int64(Double(faults.networkLatency.tailMax.nanoseconds) * slowest)
        return max(5_000_000_000, slowedTail + 2_000_000_000)
    }
    /// The first day edited; the others follow it.
    static let firstDay = UFreeDay(year: 2026, month: 1, day: 14)

    /// What the scenario saw, independent of the devices' own bookkeeping.
    final class Log: Sendable {
        /// One edit: its stamp (the device's order) and when it really happened (the server's clock).
        struct Edit: Sendable {
            let stamp: UFreeEditStamp
            let realNanoseconds: Int64
        }
        private let state = Mutex<(edits: [String: [Edit]], server: Set<UFreeEditStamp>)>(([:], []))
        /// An edit made on a device for "uid/day" at real time `real`.
        func edit(_ key: String, _ stamp: UFreeEditStamp, real: Int64) {
            state.withLock { $0.edits[key, default: []].append(Edit(stamp: stamp, realNanoseconds: real)) }
        }
        /// A day state the server committed (from an admin listener).
        func committed(_ stamp: UFreeEditStamp) { state.withLock { _ = $0.server.insert(stamp) } }
        var edits: [String: [Edit]] { state.withLock { $0.edits } }
        var server: Set<UFreeEditStamp> { state.withLock { $0.server } }
    }

    /// Runs one seed: the devices edit and flip connectivity, then all reconnect and the checks run.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = UFreeScenarioSupport.makeApp(context)
        let days = (0..<p[Parameter.days]).map { Self.firstDay.adding(days: $0) }
        let log = Log()
        var listeners: [SnapshotListener] = []
        var devices: [UFreeDevice] = []
        for index in 0..<p[Parameter.users] {
            let uid = "u\(index)"
            listeners.append(app.backend.listen("users/\(uid)/availability", label: "oracle/\(uid)") { changes in
                for change in changes { if let stamp = UFreeEditStamp(change.after.fields) { log.committed(stamp) } }
            })
            for name in Self.deviceNames { devices.append(app.device(uid: uid, named: name)) }
        }
        let origin = Simulation.nowNanoseconds
        await withTaskGroup(of: Void.self) { group in
            for (index, device) in devices.enumerated() {
                group.addTask {
                    await Simulation.named("device-\(device.label)") {
                        await Self.deviceLoop(device, index: index, days: days, origin: origin, log: log, context: context)
                    }
                }
            }
        }
        try context.throwIfStopped()
        // Everyone reconnects and syncs until quiescent (network faults may need several passes).
        for _ in 0..<6 {
            await withTaskGroup(of: Void.self) { group in
                for device in devices {
                    group.addTask { await device.setOnline(true); await device.flush() }
                }
            }
            await app.backend.waitUntilIdle()
            var pending = 0
            for device in devices { pending += await device.pendingCount }
            if pending == 0 { break }
            await ScenarioSupport.sleep(milliseconds: 2_000)
        }
        var unread = 0
        for device in devices {
            var left = days.count
            for _ in 0..<6 where left > 0 { left = await device.refresh(days) }
            unread += left
        }
        await app.backend.waitUntilIdle()
        guard unread == 0 else {
            context.note("offline-sync", "\(unread) day(s) unreadable after the final sync (network faults): end checks skipped")
            for listener in listeners { listener.remove() }
            return
        }
        for listener in listeners { listener.remove() }
        try await Self.checkEnd(app, devices: devices, days: days, log: log, context: context)
    }

    static func deviceLoop(_ device: UFreeDevice, index: Int, days: [UFreeDay], origin: UInt64, log: Log, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("offline/device-\(index)")
        var online = true
        // The app's start loads the schedule, which tells the device the server's time.
        for _ in 0..<6 where device.firestore.network.serverTimeEstimate == nil {
            if context.isStopped { return }
            await device.refresh(days)
        }
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.editsPerDevice], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            if random.below(100) < p[Parameter.offlinePercent] {
                online.toggle()
                await device.setOnline(online)
                context.note(device.label, online ? "back online" : "offline")
                if online {
                    await device.refresh(days)
                    await device.flush()
                }
            }
            let day = days[random.below(days.count)]
            let status = UFreeAvailabilityStatus.allCases[random.below(UFreeAvailabilityStatus.allCases.count)]
            let stamp = await device.set(day, status)
            log.edit("\(device.uid)/\(day.key)", stamp, real: Int64(Simulation.nowNanoseconds))
            context.note(device.label, "set \(day.key) \(status)\(online ? "" : " (offline)")")
            await device.flush()
            context.recordLatency("edit", user: device.label, intendedStartNanoseconds: arrival)
        }
    }

    /// The end-state checks, against the scenario's own log of edits and the admin listener's
    /// record of what the server committed.
    static func checkEnd(_ app: UFreeApp, devices: [UFreeDevice], days: [UFreeDay], log: Log, context: ScenarioContext) async throws {
        let edits = log.edits, committed = log.server
        let concurrentEdits = Self.concurrentEditsNanoseconds(app.backend.faults)
        var restamped: [UFreeEditStamp: UFreeEditStamp] = [:]
        for device in devices { restamped.merge(await device.restamped) { first, _ in first } }
        var anyPending = false
        for device in devices where await device.pendingCount > 0 {
            anyPending = true
            let pending = await device.pendingCount
            context.note(device.label, "still \(pending) write(s) queued after the final sync (network faults)")
        }
        for device in devices {
            for shown in await device.shown {
                guard let entry = shown.entry else { continue }
                let own = entry.stamp.editor == device.label
                context.always(Check.uiShowsRealStates, own || committed.contains(entry.stamp),
                               "\(device.label) showed \(shown.day) = \(entry.status) from \(entry.stamp.editor)'s edit at \(entry.stamp.editedAt), a state the server never held")
            }
            if !(await device.rejected.isEmpty) { context.sometimes(Check.offlineWriteRejected, true) }
        }
        guard !anyPending else { return }
        for device in devices {
            let cache = await device.days
            for day in days {
                let server = await app.backend.firestore.get(DocumentPath("users", device.uid).child("availability", day.key))
                let stamp = UFreeEditStamp(server.fields)
                if device.label.hasSuffix("/\(deviceNames[0])"), let dayEdits = edits["\(device.uid)/\(day.key)"],
                   let newest = dayEdits.max(by: { $0.realNanoseconds < $1.realNanoseconds }) {
                    let held = dayEdits.first { (restamped[$0.stamp] ?? $0.stamp) == stamp }
                    let lag = held.map { newest.realNanoseconds - $0.realNanoseconds } ?? .max
                    context.eventually(Check.newestEditWins, held != nil && lag <= concurrentEdits,
                                       "\(device.uid) \(day.key): the server holds the edit of \(stamp?.editor ?? "nobody") made \(held == nil ? "never" : "\(Double(lag) / 1e9) s") before the newest, \(newest.stamp.editor)'s")
                }
                context.eventually(Check.cachesMatchServer, cache[day.key]?.stamp == stamp,
                                   "\(device.label) shows \(day.key) from the edit \(cache[day.key].map { "\($0.stamp.editor)@\($0.stamp.editedAt)" } ?? "none") but the server holds \(stamp.map { "\($0.editor)@\($0.editedAt)" } ?? "none")")
            }
        }
        try context.throwIfStopped()
    }
}
