import SimulatedFirebase

/// The friends' schedule screen of one device (seed: "FriendsScheduleViewModel", "DayFilterButtonView
/// + ViewModel (day filter + heatmap badge)", "Availability Heatmap … live counts per day", and the
/// offline-first data flow "UI → ViewModel → CompositeRepository → SwiftData [instant] ↓
/// (background)"): a refresh reads every friend's days from Firestore (one query a friend), hands the rows to the UI at
/// once and upserts them into the device's SwiftData store in the background, one row at a time.
/// The "Who's free on…" badge is computed from the store, by two recomputations: the view model's
/// own when the refresh returns, and the store observer's when the background upsert finishes
/// (docs/domain.md, "UFree who's-free badge").
///
/// Careful design: a recomputation publishes its counts with the store version it read, and the
/// badge keeps the newest version, so the view model's recomputation cannot replace the
/// observer's fresher one. `heatmap-unversioned-publish` publishes whatever it computed: when the
/// view model's read precedes the background upsert and its publish follows the observer's, the
/// badge shows the counts from before the refresh until the next one. That needs the background
/// upsert to run from start to end between the view model's read and its publish, a long
/// uninterrupted sequence (docs/zoo.md).
public actor UFreeFriendsSchedule: DomainActor {
    /// One friend's status on one day, as the store holds it (nil: no status; the row is absent).
    public struct Row: Sendable, Hashable {
        /// The friend.
        public let friendId: String
        /// The day.
        public let day: UFreeDay
        /// The friend's status that day.
        public let status: UFreeAvailabilityStatus?
    }

    /// The device's executor (the main actor of the app).
    public nonisolated let executor: any SerialExecutor
    /// The signed-in user whose friends these are.
    public nonisolated let userId: String
    /// The device ("u0/phone").
    public nonisolated let device: String
    private let app: UFreeApp
    private let client: FirestoreClient
    private let store: UFreeScheduleStore
    private let versioned: Bool
    private var badgeDays: [UFreeHeatmapDay] = []
    private var badgeVersion = -1
    private var discarded = 0
    private var upserted = 0
    private var background: Task<Void, Never>?

    init(app: UFreeApp, userId: String, device: String) {
        self.app = app
        self.userId = userId
        self.device = device
        executor = app.backend.env.makeExecutor(label: "schedule/\(device)")
        client = app.backend.client(auth: AuthContext(uid: userId), label: device)
        store = UFreeScheduleStore(env: app.backend.env, label: device)
        versioned = app.variant != .heatmapUnversionedPublish
    }

    /// The badge: per day, how many friends are free or partly free (empty before the first refresh).
    public var badge: [UFreeHeatmapDay] { badgeDays }
    /// Recomputations the badge refused as older than what it shows (careful design only).
    public var discardedRecomputations: Int { discarded }
    /// The rows in the device's store, sorted by friend then day.
    public var storedRows: [Row] { get async { await store.allRows } }

    /// Pull to refresh: reads each friend's days (one query a friend, friends in id order), returns
    /// the rows to the UI, upserts them into the store in the background and recomputes the badge.
    /// Throws (and changes nothing) if a read fails.
    @discardableResult
    public func refresh(days: [UFreeDay]) async throws(UFreeError) -> [Row] {
        var rows: [Row] = []
        for friendId in await app.friendIds(of: userId) {
            let documents = try await readDays(of: friendId)
            for day in days {
                let raw = documents[day.key]?["status"]?.intValue
                rows.append(Row(friendId: friendId, day: day, status: raw.flatMap { UFreeAvailabilityStatus(rawValue: Int($0)) }))
            }
        }
        let previous = background
        background = Task { await self.upsertInBackground(rows, days: days, after: previous) }
        await recomputeBadge(days: days)
        return rows
    }

    /// One friend's `availability` documents by day key: one query, retried twice (1 s, 2 s later)
    /// on UNAVAILABLE or DEADLINE_EXCEEDED, as the SDK's read retries do.
    private func readDays(of friendId: String) async throws(UFreeError) -> [String: DocumentSnapshot] {
        var attempt = 1
        while true {
            do {
                let documents = try await client.query("users/\(friendId)/availability")
                return Dictionary(documents.map { ($0.path.id, $0) }, uniquingKeysWith: { first, _ in first })
            } catch {
                let transient: Bool
                switch error {
                case .unavailable, .deadlineExceeded: transient = true
                default: transient = false
                }
                guard transient, attempt < 3 else { throw .backend(error) }
                try? await app.backend.env.clock.sleep(for: .seconds(attempt))
                attempt += 1
            }
        }
    }

    /// Waits until the background upserts of every refresh so far have finished.
    public func settle() async {
        while let task = background {
            await task.value
            if background == task { background = nil }
        }
    }

    private func upsertInBackground(_ rows: [Row], days: [UFreeDay], after previous: Task<Void, Never>?) async {
        await previous?.value
        for row in rows {
            await store.upsert(row)
            // The sync progress the UI shows. Never read here, but not dead: touching the screen's
            // state makes each row a hop back to this actor, which the optimizer could otherwise
            // merge away (docs/zoo.md, "A depth-2 bug random cannot reach").
            upserted += 1
        }
        // The store changed: its observer recomputes the badge.
        await recomputeBadge(days: days)
    }

    private func recomputeBadge(days: [UFreeDay]) async {
        var computed = await store.heatmap(days: days)
        if app.variant == .heatmapOneWeek {
            computed.days = computed.days.enumerated().map { index, day in
                index < 7 ? day : UFreeHeatmapDay(day: day.day, freeCount: 0, partlyFreeCount: 0)
            }
        }
        if versioned && computed.version < badgeVersion {
            discarded += 1
            return
        }
        badgeDays = computed.days
        badgeVersion = computed.version
    }
}

extension UFreeApp {
    /// The friends' schedule screen of `device` ("u0/phone"), signed in as `userId`.
    public func friendsSchedule(userId: String, device: String) -> UFreeFriendsSchedule {
        UFreeFriendsSchedule(app: self, userId: userId, device: device)
    }
}
