/// What a scenario's backend lets a world swarm turn: fault rates and outage kinds. The harness
/// draws and records them by name; the backend's bridge applies them (`FirebaseWorld`).
public struct WorldKnobs: Sendable, Hashable {
    /// Fault probabilities, each drawn per seed from off to several times its default.
    public var faults: [FaultKnob]
    /// Services whose outages (bursts of minutes to hours) a seed may draw.
    public var outages: [String]

    /// Knobs of a backend (none by default).
    public init(faults: [FaultKnob] = [], outages: [String] = []) {
        self.faults = faults
        self.outages = outages
    }

    /// No knobs.
    public var isEmpty: Bool { faults.isEmpty && outages.isEmpty }
}

/// One fault probability a world swarm draws: off, the default, several times it, anything up to
/// the ceiling.
public struct FaultKnob: Sendable, Hashable {
    /// The knob's name as worlds record it (`trigger-duplicate`).
    public let name: String
    /// The backend's documented or estimated default.
    public let defaultRate: Double
    /// The largest rate drawn.
    public let ceiling: Double
    /// Drawn after the outages: a knob added to a backend that worlds were already drawn for
    /// leaves every earlier knob's and outage's draw of each seed as it was.
    public let drawnAfterOutages: Bool

    /// A knob called `name`, at `defaultRate` by default, drawn up to `ceiling` (after the outages
    /// when `drawnAfterOutages`).
    public init(_ name: String, default defaultRate: Double, ceiling: Double, drawnAfterOutages: Bool = false) {
        precondition(defaultRate >= 0 && defaultRate <= ceiling && ceiling <= 1, "a fault rate is a probability at most its ceiling")
        self.name = name
        self.defaultRate = defaultRate
        self.ceiling = ceiling
        self.drawnAfterOutages = drawnAfterOutages
    }
}
