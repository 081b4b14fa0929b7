import Harness
import SimulatedFirebase

/// The simulated Firebase's knobs as a world swarm draws them (every fault probability of
/// `BackendFaults`, named as the fault ledger names their faults, and every outage kind), and how a
/// drawn world sets them. Defaults are `BackendFaults.default`'s; ceilings are several times them
/// (docs/domain.md, "What a world swarm draws").
public enum FirebaseWorld {
    /// Every fault knob, in drawing order (`FaultTable.dials`: defaults from `BackendFaults.default`).
    public static let faultKnobs: [FaultKnob] = FaultTable.dials.map {
        FaultKnob($0.name, default: $0.defaultRate, ceiling: $0.ceiling, drawnAfterOutages: $0.drawnAfterOutages)
    }

    /// Every outage kind (`Outage.Service`).
    public static let outageKinds: [String] = Outage.Service.allCases.map(\.rawValue)

    /// The knobs a Firebase scenario offers.
    public static let knobs = WorldKnobs(faults: faultKnobs, outages: outageKinds)

    /// `base` with the world's fault rates set (knobs it does not list keep `base`'s) and its outages.
    public static func apply(_ world: World, to base: BackendFaults) -> BackendFaults {
        var faults = base
        for (name, rate) in world.faults.sorted(by: { $0.key < $1.key }) { set(name, rate, &faults) }
        faults.outages = world.outages.compactMap(outage)
        return faults
    }

    /// Sets knob `name` to `rate` in `faults`.
    package static func set(_ name: String, _ rate: Double, _ faults: inout BackendFaults) {
        guard let dial = FaultTable.dial(named: name) else {
            preconditionFailure("knob \(name) is not one of FaultTable.dials (World.problem refuses it first)")
        }
        dial.set(rate, in: &faults)
    }

    /// The domain's outage for a drawn one (nil for a kind this build lacks; `World.problem` refuses it first).
    static func outage(_ draw: OutageDraw) -> Outage? {
        guard let service = Outage.Service(rawValue: draw.service) else { return nil }
        return Outage(
            service: service, startsPerHour: draw.startsPerHour, shortest: .seconds(draw.shortestSeconds),
            longest: .seconds(draw.longestSeconds), severity: draw.severity, startsDown: draw.startsDown)
    }
}
