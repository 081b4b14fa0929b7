import SimulatedFirebase

/// One of a user's devices running UFree offline-first (docs/domain.md, "UFree offline-first
/// devices"): the Firestore SDK's local cache with latency compensation. An edit applies to the
/// device's cache at once (its local listener, the UI, sees it in the same step), joins the
/// device's pending-write queue and syncs in order while the device is online; a write the server
/// rejects leaves the queue and the day rolls back to the server's document. `refresh()` (on
/// reconnect) takes the server's days the device has no pending write for.
public actor UFreeDevice: DomainActor {
    /// The device's executor (device-local steps take no virtual time).
    public nonisolated let executor: any SerialExecutor
    /// "u0/phone": the user and the device.
    public nonisolated let label: String
    /// The signed-in user.
    public nonisolated let uid: String
    /// The device's connection to the backend.
    public nonisolated let firestore: FirestoreClient

    /// One day as the device's cache holds it.
    public struct Entry: Sendable, Hashable {
        /// The status shown.
        public let status: UFreeAvailabilityStatus
        /// The edit that set it.
        public let stamp: UFreeEditStamp
    }

    /// One edit waiting to sync.
    struct PendingWrite: Sendable {
        let day: UFreeDay
        var entry: Entry
        /// The device's uptime at the edit.
        let uptime: Int64
        /// Stamped by the device's clock for want of the server's time: restamped before it is sent.
        var provisional: Bool
    }

    private var cache: [String: Entry] = [:]
    /// The server's document per day as this device last learnt it (ack, read): the SDK's remote
    /// document cache, which a rejected write rolls back to.
    private var serverKnown: [String: Entry] = [:]
    private var pending: [PendingWrite] = []
    private var flushing = false
    private var shownLog: [(day: String, entry: Entry?)] = []
    private var rejectedLog: [UFreeEditStamp] = []
    private var restampLog: [UFreeEditStamp: UFreeEditStamp] = [:]

    init(app: UFreeApp, uid: String, device: String) {
        label = "\(uid)/\(device)"
        self.uid = uid
        executor = app.backend.env.makeExecutor(label: "device/\(uid)/\(device)")
        firestore = app.backend.client(auth: AuthContext(uid: uid), label: "\(uid)/\(device)")
        stampsFromDeviceClock = app.variant == .deviceClockStamps
    }

    private let stampsFromDeviceClock: Bool
    private var lastStamp: Int64 = .min
    private var lastProvisional: Int64 = .min

    /// The cache's days (what the UI shows), keyed by `UFreeDay.key`.
    public var days: [String: Entry] { cache }
    /// Every value the UI was shown, in order (nil: the day was cleared).
    public var shown: [(day: String, entry: Entry?)] { shownLog }
    /// Edits the server rejected on this device, in order.
    public var rejected: [UFreeEditStamp] { rejectedLog }
    /// Edits stamped by the device's clock before it knew the server's time, and the stamp each
    /// was sent with (the careful design restamps them once an answer tells it the server's time).
    public var restamped: [UFreeEditStamp: UFreeEditStamp] { restampLog }
    /// Writes not yet acknowledged by the server.
    public var pendingCount: Int { pending.count }

    private func show(_ day: String, _ entry: Entry?) {
        guard cache[day] != entry else { return }
        cache[day] = entry
        shownLog.append((day, entry))
    }

    /// Sets the user's status for `day` on this device: applied to the cache at once and queued;
    /// returns the edit's stamp. Call `flush()` to sync (nothing is sent while offline).
    @discardableResult
    public func set(_ day: UFreeDay, _ status: UFreeAvailabilityStatus) -> UFreeEditStamp {
        restampProvisional()
        let uptime = firestore.deviceClock.uptimeNanoseconds
        let (time, provisional) = stampTime(uptime: uptime)
        let entry = Entry(status: status, stamp: UFreeEditStamp(editedAt: time, editor: label))
        show(day.key, entry)
        pending.append(PendingWrite(day: day, entry: entry, uptime: uptime, provisional: provisional))
        return entry.stamp
    }

    /// When an edit made at `uptime` happened, as the rules order edits, and whether that is
    /// provisional. Careful: the server's time as the device learnt it (`serverTimeEstimate`:
    /// no device-clock offset or jump enters), never behind its own previous edit; before any
    /// answer arrived, the device's clock, provisionally (`restampProvisional` fixes it before it is
    /// sent). `device-clock-stamps`: the device's `Date()`, always.
    private func stampTime(uptime: Int64) -> (Int64, provisional: Bool) {
        guard !stampsFromDeviceClock else { return (firestore.deviceClock.now.unixNanoseconds, false) }
        guard let server = firestore.network.serverTimeEstimate else {
            // Unique per device (two edits in one instant), so each restamp is told apart.
            let provisional = max(firestore.deviceClock.now.unixNanoseconds, lastProvisional + 1)
            lastProvisional = provisional
            return (provisional, true)
        }
        let now = firestore.deviceClock.uptimeNanoseconds
        let stamp = max(server.unixNanoseconds - (now - uptime), lastStamp + 1)
        lastStamp = stamp
        return (stamp, false)
    }

    /// Restamps the queued edits stamped before the device knew the server's time, in order, once it does.
    private func restampProvisional() {
        guard pending.contains(where: \.provisional), firestore.network.serverTimeEstimate != nil else { return }
        for index in pending.indices where pending[index].provisional {
            let write = pending[index]
            let stamp = UFreeEditStamp(editedAt: stampTime(uptime: write.uptime).0, editor: label)
            restampLog[write.entry.stamp] = stamp
            pending[index].entry = Entry(status: write.entry.status, stamp: stamp)
            pending[index].provisional = false
            if cache[write.day.key] == write.entry { show(write.day.key, pending[index].entry) }
        }
    }

    /// Sends the queued writes in order while online (one flush at a time); stops at the first
    /// network failure, leaving the write queued. A rejection rolls the day back.
    public func flush() async {
        guard !flushing else { return }
        flushing = true
        defer { flushing = false }
        restampProvisional()
        while let write = pending.first, firestore.network.isOnline {
            if write.provisional {
                // A provisional stamp is never sent: a read first tells the device the server's time.
                if firestore.network.serverTimeEstimate == nil, (try? await firestore.get(UFreeApp.availability(uid, write.day))) == nil { return }
                restampProvisional()
                continue
            }
            let path = UFreeApp.availability(uid, write.day)
            let fields: Fields = [
                "status": .int(Int64(write.entry.status.rawValue)), "updatedAt": .timestamp(Timestamp(unixNanoseconds: write.entry.stamp.editedAt)),
                "editedAt": .int(write.entry.stamp.editedAt), "editor": .string(write.entry.stamp.editor),
            ]
            do {
                try await firestore.setData(path, fields)
                pending.removeFirst()
                serverKnown[write.day.key] = write.entry
            } catch .permissionDenied {
                pending.removeFirst()
                rejectedLog.append(write.entry.stamp)
                if !pending.contains(where: { $0.day == write.day }) {
                    // Rolled back at once to the server state the device knows, then to the
                    // server's document.
                    show(write.day.key, serverKnown[write.day.key])
                    if let server = try? await firestore.get(path) {
                        serverKnown[write.day.key] = Self.entry(server.fields)
                        if !pending.contains(where: { $0.day == write.day }) { show(write.day.key, Self.entry(server.fields)) }
                    }
                }
            } catch {
                return  // offline or lost: stays queued (a timed-out write may have applied; resending it is idempotent)
            }
        }
    }

    /// Takes the server's days (`days`) for those with no pending write on this device; returns
    /// how many days it could not read (offline, network faults).
    @discardableResult
    public func refresh(_ days: [UFreeDay]) async -> Int {
        guard firestore.network.isOnline else { return days.count }
        var unread = 0
        for day in days {
            guard let server = try? await firestore.get(UFreeApp.availability(uid, day)) else { unread += 1; continue }
            serverKnown[day.key] = Self.entry(server.fields)
            if !pending.contains(where: { $0.day == day }) { show(day.key, Self.entry(server.fields)) }
        }
        return unread
    }

    /// Goes offline or back online (writes queue meanwhile).
    public func setOnline(_ online: Bool) { firestore.network.setOnline(online) }

    static func entry(_ fields: Fields?) -> Entry? {
        guard let raw = fields?["status"]?.intValue, let status = UFreeAvailabilityStatus(rawValue: Int(raw)),
              let stamp = UFreeEditStamp(fields) else { return nil }
        return Entry(status: status, stamp: stamp)
    }
}

extension UFreeApp {
    /// A device of `uid` running UFree offline-first (`device`: "phone", "tablet").
    public func device(uid: String, named device: String) -> UFreeDevice {
        UFreeDevice(app: self, uid: uid, device: device)
    }
}
