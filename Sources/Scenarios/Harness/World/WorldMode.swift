/// How a sweep picks each seed's world (`fuzz --world`).
public enum WorldMode: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Every seed runs the scenario's defaults (with the fault swarm unless `--no-swarm`).
    case `default`
    /// Each seed draws its world: every unpinned parameter, every fault rate, outages.
    case swarm
    /// As `swarm`, then later seeds mutate the worlds that reached code or goals others did not.
    case guided

    /// The name `--world` takes.
    public var description: String { rawValue }
}
