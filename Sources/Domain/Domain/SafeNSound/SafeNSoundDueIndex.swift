import SimulatedFirebase

/// An index of users by the next instant their check-in state needs a look (a Firestore query on
/// `nextCheckDue <= horizon`), so the 30-minute check costs O(users due), not O(all users).
///
/// Entries keep the earliest requested instant (`schedule` takes the minimum): an entry may be
/// early, never late; an early visit just recomputes from the fresh user document and reschedules.
/// Buckets are 30-minute slots; stale bucket entries are dropped lazily when their slot is read.
actor SafeNSoundDueIndex: DomainActor {
    nonisolated let executor: any SerialExecutor
    private let slotWidthNanoseconds: Int64
    /// Each user's index in `users` and `dueByUser`: scheduling hashes the id once, and taking
    /// a bucket hashes nothing (a bucket lists indices).
    private var userIndex: [String: Int] = [:]
    private var users: [String] = []
    /// Per user index: the requested instant in nanoseconds, nil when the user has no entry.
    private var dueByUser: [Int64?] = []
    /// Per user index: until when a run that took the entry holds it (nil: not held).
    private var leasedUntil: [Int64?] = []
    private var entries = 0
    private var buckets: [Int64: [Int]] = [:]

    init(environment: DomainEnvironment, slotWidth: Duration) {
        precondition(slotWidth > .zero, "slot width must be positive")
        self.slotWidthNanoseconds = slotWidth.nanoseconds
        self.executor = environment.makeExecutor(label: "safensound/due-index")
    }

    private func slot(of nanoseconds: Int64) -> Int64 {
        let quotient = nanoseconds / slotWidthNanoseconds
        return nanoseconds % slotWidthNanoseconds < 0 ? quotient - 1 : quotient
    }

    /// Asks for a visit of `userId` at `due` or earlier (keeps an existing earlier entry).
    func schedule(_ userId: String, at due: Timestamp) {
        let nanoseconds = due.unixNanoseconds
        let next = users.count
        let user = Self.index(&userIndex[userId, default: next])
        if user == next {
            users.append(userId)
            dueByUser.append(nil)
            leasedUntil.append(nil)
        }
        if let existing = dueByUser[user] {
            if existing <= nanoseconds { return }
        } else {
            entries += 1
        }
        dueByUser[user] = nanoseconds
        buckets[slot(of: nanoseconds), default: []].append(user)
    }

    /// Reads an index through a `[key, default: next]` subscript, which stores `next` for a new key (one hash).
    private static func index(_ stored: inout Int) -> Int { stored }

    /// Every user due at or before `horizon` and not leased at `now`, ordered by due time then id,
    /// each leased until `now + lease` and kept until `finish`; `lease` nil removes them at once.
    func takeDue(through horizon: Timestamp, now: Timestamp, lease: Duration?) -> [(userId: String, due: Timestamp)] {
        let horizonSlot = slot(of: horizon.unixNanoseconds)
        let slots = buckets.keys.filter { $0 <= horizonSlot }.sorted()
        var taken: [(userId: String, due: Timestamp)] = []
        for bucketSlot in slots {
            guard let members = buckets.removeValue(forKey: bucketSlot) else { continue }
            var kept: [Int] = []
            var seen: Set<Int> = []
            for user in members where seen.insert(user).inserted {
                guard let due = dueByUser[user], slot(of: due) == bucketSlot else { continue }  // stale
                kept.append(user)
                guard due <= horizon.unixNanoseconds, (leasedUntil[user] ?? .min) <= now.unixNanoseconds else { continue }
                taken.append((users[user], Timestamp(unixNanoseconds: due)))
                if let lease {
                    leasedUntil[user] = now.unixNanoseconds + lease.nanoseconds
                } else {
                    dueByUser[user] = nil
                    entries -= 1
                    kept.removeLast()
                }
            }
            if !kept.isEmpty { buckets[bucketSlot] = kept }
        }
        taken.sort { ($0.due, $0.userId) < ($1.due, $1.userId) }
        return taken
    }

    /// Ends the lease on `userId`'s entry taken at `due`: it goes, or becomes `next`; an earlier
    /// visit asked for meanwhile stays (earliest wins).
    func finish(_ userId: String, taken due: Timestamp, next: Timestamp?) {
        guard let user = userIndex[userId] else { return }
        leasedUntil[user] = nil
        if dueByUser[user] == due.unixNanoseconds {
            dueByUser[user] = nil
            entries -= 1
        }
        if let next { schedule(userId, at: next) }
    }

    /// Number of users with an entry (for tests and memory accounting).
    var count: Int { entries }
}
