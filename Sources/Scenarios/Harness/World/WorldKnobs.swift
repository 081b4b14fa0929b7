/// What a scenario's backend lets a world swarm turn: fault rates and outage kinds. The harness
/// draws and records them by name; the backend's bridge applies them (`FirebaseWorld`).
public struct WorldKnobs: Sendable, Hashable {
    /// Fault probabilities, each drawn per seed from off to several times its default.
    package var faults: [FaultKnob]
    /// Services whose outages (bursts of minutes to hours) a seed may draw.
    package var outages: [String]

    /// Knobs of a backend (none by default).
    package init(faults: [FaultKnob] = [], outages: [String] = []) {
        self.faults = faults
        self.outages = outages
    }

    /// No knobs.
    package var isEmpty: Bool { faults.isEmpty && outages.isEmpty }
}

/// One fault probability a world swarm draws: off, the default, several times it, anything up to
/// the ceiling.
public struct FaultKnob: Sendable, Hashable {
    /// The knob's name as worlds record it (`trigger-duplicate`).
    package let name: String
    /// The backend's documented or estimated default.
    package let defaultRate: Double
    /// The largest rate drawn.
    package let ceiling: Double
    /// Drawn after the outages: a knob added to a backend that worlds were already drawn for
    /// leaves every earlier knob's and outage's draw of each seed as it was.
    package let drawnAfterOutages: Bool

    /// A knob called `name`, at `defaultRate` by default, drawn up to `ceiling` (after the outages
    /// when `drawnAfterOutages`).
    package init(_ name: String, default defaultRate: Double, ceiling: Double, drawnAfterOutages: Bool = false) {
        precondition(defaultRate >= 0 && defaultRate <= ceiling && ceiling <= 1, "a fault rate is a probability at most its ceiling")
        self.name = name
        self.defaultRate = defaultRate
        self.ceiling = ceiling
        self.drawnAfterOutages = drawnAfterOutages
    }
}
