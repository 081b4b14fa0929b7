import Synchronization

/// What seat-contention's users under load were told, as holds: from a user's "reserved" answer
/// until they start releasing the seat. A user's hold lies inside their real reservation (the
/// reservation committed before the answer, and ends no earlier than the release's start), so two
/// users' holds of one seat that overlap prove the seat was reserved twice at once.
final class SeatHolds: Sendable {
    private struct Hold {
        let user: Int
        let from: UInt64
        var until: UInt64?
    }
    private let holds = Mutex<[Int: [Hold]]>([:])
    /// How long an ended hold is kept for judging (ns).
    private static let kept: UInt64 = 60_000_000_000

    /// `user` was told `seat` is theirs at `time` (ns into the load); the users told so before
    /// and still holding it, if any.
    func reserved(_ seat: Int, by user: Int, at time: UInt64) -> [Int] {
        holds.withLock { holds in
            // Holds over for a minute cannot overlap an answer given now (a task reads the time
            // before it takes the lock, never a minute before): the list stays short.
            holds[seat]?.removeAll { $0.until.map { $0 + Self.kept < time } ?? false }
            let holders = (holds[seat] ?? []).filter { $0.user != user && $0.from <= time && ($0.until.map { $0 > time } ?? true) }.map(\.user)
            holds[seat, default: []].append(Hold(user: user, from: time))
            return holders
        }
    }

    /// `user` starts releasing `seat` at `time`. Whether the release then lands or fails, the
    /// hold is over for judging: a failed release may have landed, so a later reservation by
    /// someone else is never held against it.
    func released(_ seat: Int, by user: Int, at time: UInt64) {
        holds.withLock { holds in
            guard let index = holds[seat]?.lastIndex(where: { $0.user == user && $0.until == nil }) else { return }
            holds[seat]![index].until = time
        }
    }
}
