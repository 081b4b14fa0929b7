/// One entry of a run's trace: a scheduling decision or an event an actor recorded.
public struct TraceEvent: Sendable, Hashable, Codable {
    /// What kind of entry this is.
    public enum Kind: String, Sendable, Codable {
        /// A job ran; `detail` says on which executor.
        case run
        /// Virtual time jumped to the next timer.
        case advance
        /// An actor or the harness recorded an event.
        case event
        /// The strategy chose which of several nearly simultaneous timers fires first
        /// (`readyCount` candidates, `chosenIndex` taken).
        case timing
    }

    /// Scheduler step at which the entry was made (jobs run so far).
    public var step: UInt64
    /// Virtual nanoseconds since the start of the run.
    public var timeNanoseconds: UInt64
    /// What happened at this step.
    public var kind: Kind
    /// Ordinal of the executor (actor) involved: 0 is nonisolated code, then actors in creation order.
    public var actor: UInt32
    /// For `.run`: the number of ready jobs and the index chosen; for `.event`: 0.
    public var readyCount: UInt32
    /// The index the strategy chose among `readyCount` candidates.
    public var chosenIndex: UInt32
    /// Human-readable: the actor's label for `.run`, the event text for `.event`.
    public var detail: String

    /// The JSON Lines form of this entry (stable key order).
    public var jsonLine: String {
        "{\"step\":\(step),\"t_ns\":\(timeNanoseconds),\"kind\":\"\(kind.rawValue)\",\"actor\":\(actor),"
            + "\"ready\":\(readyCount),\"chosen\":\(chosenIndex),\"detail\":\(TraceEvent.jsonString(detail))}"
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
