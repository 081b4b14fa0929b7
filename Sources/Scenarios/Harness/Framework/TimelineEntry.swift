/// One event on a user's timeline (virtual time), for per-user timelines in reports.
public struct TimelineEntry: Sendable, Hashable, Codable {
    /// The lane: a user id, or `backend` for faults.
    public let user: String
    /// Virtual time of the event.
    public let timeNanoseconds: UInt64
    /// What happened, in one line.
    package var event: String { text.rendered }
    /// The kernel step the event was noted at (its position in the trace); nil for the backend's
    /// fault events (the domain does not know steps) and in reports written before steps were kept.
    public var step: UInt64? = nil
    /// The event's text, or how to build it.
    private let text: Text

    /// An event's text: given, or built when first read. Most runs' timelines are never shown
    /// (a passing seed of a sweep), so describing failed bids and faults eagerly would be work
    /// spent on text nobody reads (docs/performance.md).
    private enum Text: Sendable {
        case given(String)
        /// Builds the text from values it captured (never from state that changes later).
        case deferred(@Sendable () -> String)

        var rendered: String {
            switch self {
            case .given(let text): text
            case .deferred(let render): render()
            }
        }
    }

    /// An entry with every field given.
    package init(user: String, timeNanoseconds: UInt64, event: String, step: UInt64? = nil) {
        self.user = user
        self.timeNanoseconds = timeNanoseconds
        self.text = .given(event)
        self.step = step
    }

    /// An entry whose text `render` builds when it is read; `render` must depend only on the
    /// values it captured, so it reads the same whenever it runs.
    init(user: String, timeNanoseconds: UInt64, step: UInt64?, rendering render: @escaping @Sendable () -> String) {
        self.user = user
        self.timeNanoseconds = timeNanoseconds
        self.text = .deferred(render)
        self.step = step
    }

    /// Equal when user, time, step and text are.
    public static func == (a: TimelineEntry, b: TimelineEntry) -> Bool {
        a.user == b.user && a.timeNanoseconds == b.timeNanoseconds && a.step == b.step && a.event == b.event
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(user)
        hasher.combine(timeNanoseconds)
        hasher.combine(step)
        hasher.combine(event)
    }

    private enum CodingKeys: String, CodingKey { case user, timeNanoseconds, event, step }

    /// Decodes `user`, `timeNanoseconds`, `event` and the optional `step`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        user = try container.decode(String.self, forKey: .user)
        timeNanoseconds = try container.decode(UInt64.self, forKey: .timeNanoseconds)
        text = .given(try container.decode(String.self, forKey: .event))
        step = try container.decodeIfPresent(UInt64.self, forKey: .step)
    }

    /// Encodes the fields `init(from:)` reads (`step` only when known).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(timeNanoseconds, forKey: .timeNanoseconds)
        try container.encode(event, forKey: .event)
        try container.encodeIfPresent(step, forKey: .step)
    }
}
