/// One fault rate of `BackendFaults` as worlds and swarms turn it, declared once in `FaultTable`:
/// its name (the `FaultKind` it makes happen, where it has one), the fields it sets, its default
/// (read from `BackendFaults.default`), the ceiling a world draws up to, and the swarm group that
/// turns it.
public struct FaultDial: Sendable {
    /// The fault kinds a swarm turns on or off together, each at one drawn rate.
    public enum SwarmGroup: String, Sendable, Hashable, CaseIterable {
        case latencyTails = "latency-tails"
        case drops
        case timeouts
        case duplicateTriggers = "duplicate-triggers"
        case reorderedTriggers = "reordered-triggers"
        case duplicateTicks = "duplicate-ticks"
        case overlappingTicks = "overlapping-ticks"
        case emailFailures = "email-failures"
        case contention

        /// The range a swarm draws the group's rate from (probabilities).
        public var rateRange: ClosedRange<Double> {
            switch self {
            case .latencyTails: 0.01...0.2
            case .drops: 0.005...0.1
            case .timeouts: 0.001...0.05
            case .duplicateTriggers: 0.01...0.3
            case .reorderedTriggers: 0.05...0.5
            case .duplicateTicks: 0.01...0.5
            case .overlappingTicks: 0.1...1.0
            case .emailFailures: 0.01...0.2
            case .contention: 0.05...0.5
            }
        }
    }

    /// The name worlds, `--fault` and reports use.
    public let name: String
    /// The ledger's kind this rate draws (nil: `latency-tails`, which makes answers slow, not failed,
    /// and `email-quota-shared`, a share of SendGrid's rate whose 429s are counted when they happen).
    public let kind: FaultKind?
    /// The fields set to the rate (every latency model's tail for `latency-tails`).
    package let fields: [WritableKeyPath<BackendFaults, Double> & Sendable]
    /// The largest rate a world draws.
    public let ceiling: Double
    /// The swarm group that turns this rate, and the share of the group's rate it gets.
    public let swarm: (group: SwarmGroup, share: Double)?
    /// Drawn after the outages: a dial added after worlds were drawn leaves every earlier seed's
    /// draws as they were.
    public let drawnAfterOutages: Bool
    /// The MODEL_RULES section docs/domain.md carries for it.
    public let source: String

    init(
        _ name: String, _ kind: FaultKind?, _ fields: [WritableKeyPath<BackendFaults, Double> & Sendable], ceiling: Double,
        swarm: (group: SwarmGroup, share: Double)? = nil, drawnAfterOutages: Bool = false, source: String
    ) {
        precondition(!fields.isEmpty && kind.map { $0.rawValue == name } ?? true, "a dial sets a field and is named as its kind")
        self.name = name
        self.kind = kind
        self.fields = fields
        self.ceiling = ceiling
        self.swarm = swarm
        self.drawnAfterOutages = drawnAfterOutages
        self.source = source
    }

    /// The rate `BackendFaults.default` has.
    public var defaultRate: Double { BackendFaults.default[keyPath: fields[0]] }

    /// `faults` with every field of the dial at `rate`.
    public func set(_ rate: Double, in faults: inout BackendFaults) {
        for field in fields { faults[keyPath: field] = rate }
    }
}
