/// The few events that explain a failure, for a person: the timeline entries before the
/// violation that share a user or an object (honor, post, seat, date) with the violation's
/// message — the users' operations and the faults that hit that object (aborts, lost trigger
/// events, drops, time-outs, duplicates: entries of user `backend`) — last `limit` of them in
/// virtual-time order, then the violation itself.
package enum FailureStory {
    /// At most this many lines, violation included (a user reads them at a glance).
    package static let maxLines = 10

    /// The story of a run that ended with `violation` (or, without one, with `failure`).
    /// With `operations` (the violated check's, see `CheckDeclaration.operations`), users' entries
    /// of other operations are left out: a story about a reply count shows replies, not likes.
    package static func lines(
        timeline: [TimelineEntry], violation: InvariantViolation?, failure: String?, operations: [String] = [], limit: Int = maxLines
    ) -> [String] {
        var lines = entries(timeline: timeline, violation: violation, operations: operations, limit: limit)
            .map { "\(time($0.timeNanoseconds)) \($0.user): \($0.event)" }
        if let violation {
            lines.append("\(time(violation.virtualNanoseconds)) VIOLATED \(violation.check) at step \(violation.step): \(violation.message)")
        } else {
            lines.append("FAILED: \(failure ?? "unknown")")
        }
        return lines
    }

    /// The story's timeline entries (at most `limit − 1`, in virtual-time order), without the
    /// closing verdict line: what `lines` prints, for reports that draw the story.
    package static func entries(
        timeline: [TimelineEntry], violation: InvariantViolation?, operations: [String] = [], limit: Int = maxLines
    ) -> [TimelineEntry] {
        precondition(limit >= 2, "a story needs room for one event and the verdict")
        let until = violation?.virtualNanoseconds ?? UInt64.max
        var before = timeline.filter { $0.timeNanoseconds <= until }
        if !operations.isEmpty {
            let causal = before.filter { entry in
                entry.user == Self.backendUser || operations.contains { entry.event == $0 || entry.event.hasPrefix($0 + " ") }
            }
            if causal.contains(where: { $0.user != Self.backendUser }) { before = causal }
        }
        var relevant = before
        if let message = violation?.message {
            let mentioned = before.filter { entry in
                message.contains(entry.user) || entry.event.split(whereSeparator: { Self.separators.contains($0) }).contains { token in
                    token.count >= 2 && !token.allSatisfy(\.isNumber) && !verbs.contains(String(token)) && message.contains(token)
                }
            }
            if !mentioned.isEmpty { relevant = mentioned }
        }
        // A repeated observation (the same user seeing the same thing) tells nothing new: keep its last.
        var deduplicated: [TimelineEntry] = []
        for entry in relevant {
            deduplicated.removeAll { $0.user == entry.user && $0.event == entry.event }
            deduplicated.append(entry)
        }
        return Array(deduplicated.suffix(limit - 1))
    }

    /// The timeline user of the backend's faults.
    package static let backendUser = "backend"

    /// Characters that separate an entry's words (paths and event ids split into their ids).
    static let separators: Set<Character> = [" ", "/", "@", ":", "(", ")", ",", "|"]

    /// Words that name an action, not an object, so they never make an entry relevant.
    static let verbs: Set<String> = ["bid", "like", "unlike", "reply", "book", "reserve", "buyNow", "bought", "sees", "sold", "failed:", "double-tap"]

    /// `t=12.345678s`.
    static func time(_ nanoseconds: UInt64) -> String {
        let seconds = nanoseconds / 1_000_000_000, micros = (nanoseconds % 1_000_000_000) / 1_000
        let fraction = String(micros)
        return "t=\(seconds).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)s"
    }
}
