/// A provider's incidents over a run: bursts during which one service fails (or slows) together
/// for every caller, instead of only independent dice per call (MODEL_RULES §22: errors "in bursts
/// during incidents"; docs/domain.md, "Outages"). Outages start as a process in virtual time: in
/// each virtual minute outside an outage, one starts with probability `startsPerHour / 60` and
/// lasts a length drawn uniformly from `shortest...longest`; `startsDown` puts one in progress at
/// time 0 (a short run begins mid-incident). Every rate here is an *estimate*.
public struct Outage: Sendable, Hashable {
    /// What goes down, and what an outage does to it.
    public enum Service: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Clients' requests to Firestore, Functions and Storage fail UNAVAILABLE with probability `severity`.
        case clientNetwork = "client-network"
        /// Clients' requests take `1 + 9 × severity` times their drawn latency (a slow region).
        case slowNetwork = "slow-network"
        /// Clients' requests reach the server, which acts, and the answer is lost with probability
        /// `severity` (DEADLINE_EXCEEDED after the effect: a lossy link, a proxy dropping responses).
        case lostAnswers = "lost-answers"
        /// SendGrid answers 429 with probability `severity`.
        case sendGrid = "sendgrid"
        /// FCM reports a transient failure per token with probability `severity`.
        case fcm
        /// Cloud Storage uploads fail mid-transfer with probability `severity`.
        case storage
        /// A website a function scrapes (KNB's congregation homepage) answers 5xx to a fetch with
        /// probability `severity`: its host is down for minutes or hours, past any run's retries.
        case website

        /// By name (the order they are drawn and reported in).
        public static func < (lhs: Service, rhs: Service) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The service that goes down.
    public var service: Service
    /// Outages starting per virtual hour (outside one).
    public var startsPerHour: Double
    /// The shortest outage.
    public var shortest: Duration
    /// The longest outage.
    public var longest: Duration
    /// How hard it fails: the failure probability during an outage (or the slow-down's scale).
    public var severity: Double
    /// Whether an outage is in progress when the run starts.
    public var startsDown: Bool
    /// A slow-network outage's factor on client latency: `1 + 9 × severity`.
    public var latencyScale: Double { 1 + 9 * severity }

    /// An outage process of `service`; traps on rates outside their ranges (a caller's bug: the
    /// harness validates what it draws and reads).
    public init(service: Service, startsPerHour: Double, shortest: Duration, longest: Duration, severity: Double, startsDown: Bool = false) {
        precondition(startsPerHour >= 0 && startsPerHour <= 60, "outages start at most once a minute")
        precondition(shortest > .zero && shortest <= longest, "an outage lasts a positive time")
        precondition(severity >= 0 && severity <= 1, "severity is a probability")
        self.service = service
        self.startsPerHour = startsPerHour
        self.shortest = shortest
        self.longest = longest
        self.severity = severity
        self.startsDown = startsDown
    }
}
