/// One line of a failure story in a report: a user's operation (with its start and end when its
/// latency sample is known), a fault the backend injected (user `backend`), or the violation.
public struct StoryLine: Sendable, Hashable, Codable {
    /// What the line is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A user's event (an operation it started, saw or failed).
        case event
        /// A fault that took effect (user `backend`).
        case fault
        /// The violated check (the last line).
        case violation
    }

    /// What the line is: a user event, a fault, the violation.
    public var kind: Kind
    /// The lane: a user, `backend`, or the violated check's name for the violation.
    public var user: String
    /// What happened.
    public var event: String
    /// When the event was noted (virtual nanoseconds).
    public var timeNanoseconds: UInt64
    /// Kernel step of the event (nil for faults: the domain does not know steps).
    public var step: UInt64?
    /// The operation the event belongs to and its intended start and end (from the latency sample
    /// of `user` whose span contains the event; nil when none does).
    public var operation: String?
    /// The operation's intended start, nil when no operation spans the event.
    public var startNanoseconds: UInt64?
    /// The operation's end, nil when no operation spans the event.
    public var endNanoseconds: UInt64?

    /// A line without an operation.
    package init(kind: Kind, user: String, event: String, timeNanoseconds: UInt64, step: UInt64? = nil) {
        self.kind = kind
        self.user = user
        self.event = event
        self.timeNanoseconds = timeNanoseconds
        self.step = step
    }
}

extension StoryLine {
    /// A failed run's story as report lines: `FailureStory`'s entries (the same the failure artifact
    /// and the terminal show), each user event given the span of the operation it belongs to (the
    /// latency sample of that user whose intended start and end enclose it, the shortest if several
    /// do), then the violation (or the failure) as the last line.
    static func story(
        timeline: [TimelineEntry], violation: InvariantViolation?, failure: String, operations: [String], samples: [LatencySample],
        endNanoseconds: UInt64, endStep: UInt64
    ) -> [StoryLine] {
        var lines = FailureStory.entries(timeline: timeline, violation: violation, operations: operations).map { entry in
            var line = StoryLine(
                kind: entry.user == FailureStory.backendUser ? .fault : .event, user: entry.user, event: entry.event,
                timeNanoseconds: entry.timeNanoseconds, step: entry.step)
            if line.kind == .event {
                let enclosing = samples.filter {
                    $0.user == entry.user && $0.intendedStartNanoseconds <= entry.timeNanoseconds && entry.timeNanoseconds <= $0.endNanoseconds
                }.min { ($0.endNanoseconds - $0.intendedStartNanoseconds, $0.step) < ($1.endNanoseconds - $1.intendedStartNanoseconds, $1.step) }
                if let enclosing {
                    line.operation = enclosing.operation
                    line.startNanoseconds = enclosing.intendedStartNanoseconds
                    line.endNanoseconds = enclosing.endNanoseconds
                }
            }
            return line
        }
        if let violation {
            lines.append(StoryLine(
                kind: .violation, user: violation.check, event: violation.message, timeNanoseconds: violation.virtualNanoseconds,
                step: violation.step))
        } else {
            lines.append(StoryLine(kind: .violation, user: "run", event: failure, timeNanoseconds: endNanoseconds, step: endStep))
        }
        return lines
    }
}
