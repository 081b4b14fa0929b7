/// The world one seed runs in, beyond its schedule: the parameters a swarm drew (the others are
/// pinned or default), the fault rates it set, and the outages it scheduled. Part of the run's
/// identity (JSON key `world`); a replay runs the recorded world, whatever drew it.
public struct World: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Drawn parameter values (pinned parameters are not here).
    public var parameters: [String: Int]
    /// Fault rates by knob name; a knob not listed keeps the scenario's own rate.
    public var faults: [String: Double]
    /// Outage processes, one per service at most.
    public var outages: [OutageDraw]

    /// A world of the given draws.
    public init(parameters: [String: Int] = [:], faults: [String: Double] = [:], outages: [OutageDraw] = []) {
        self.parameters = parameters
        self.faults = faults
        self.outages = outages
    }

    /// `users=40 seats=3; trigger-duplicate=0.04; outage sendgrid 2/h 60–3600 s at 1.0`.
    public var description: String {
        var parts: [String] = []
        if !parameters.isEmpty { parts.append(parameters.keys.sorted().map { "\($0)=\(parameters[$0]!)" }.joined(separator: " ")) }
        if !faults.isEmpty { parts.append(faults.keys.sorted().map { "\($0)=\(faults[$0]!)" }.joined(separator: " ")) }
        parts += outages.map(\.description)
        return parts.isEmpty ? "the default world" : parts.joined(separator: "; ")
    }

    /// What is wrong with this world for `scenario` (a name it lacks, a value out of range); nil when sound.
    package func problem(for scenario: any Scenario) -> String? {
        for name in parameters.keys.sorted() {
            guard let spec = scenario.parameters.first(where: { $0.name == name }) else { return "no parameter '\(name)' in \(scenario.name)" }
            guard spec.range.contains(parameters[name]!) else { return "\(name)=\(parameters[name]!) is outside \(spec.minimum)...\(spec.maximum)" }
        }
        let knobs = scenario.worldKnobs
        for name in faults.keys.sorted() {
            guard let knob = knobs.faults.first(where: { $0.name == name }) else {
                return "no fault knob '\(name)'; knobs: \(knobs.faults.map(\.name).joined(separator: ", "))"
            }
            guard let rate = faults[name], rate.isFinite, rate >= 0, rate <= max(knob.ceiling, 1) else { return "fault \(name)=\(faults[name]!) is not a probability" }
        }
        for outage in outages {
            guard knobs.outages.contains(outage.service) else {
                return "no outage kind '\(outage.service)'; kinds: \(knobs.outages.joined(separator: ", "))"
            }
            if let problem = outage.problem { return problem }
        }
        if Set(outages.map(\.service)).count != outages.count { return "two outage processes of one service" }
        return nil
    }
}

/// One service's outage process in a world: outages start `startsPerHour` times a virtual hour
/// (outside one), last `shortestSeconds...longestSeconds`, fail calls with probability `severity`
/// (or slow them), and one may be in progress at the start.
public struct OutageDraw: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The service (`sendgrid`, `client-network`, …).
    public var service: String
    /// Outages starting per virtual hour.
    public var startsPerHour: Double
    /// The shortest outage, in seconds.
    public var shortestSeconds: Int
    /// The longest outage, in seconds.
    public var longestSeconds: Int
    /// The failure probability during an outage (or the slow-down's scale).
    public var severity: Double
    /// Whether an outage is in progress at the start.
    public var startsDown: Bool

    /// An outage process with every field given.
    public init(service: String, startsPerHour: Double, shortestSeconds: Int, longestSeconds: Int, severity: Double, startsDown: Bool) {
        self.service = service
        self.startsPerHour = startsPerHour
        self.shortestSeconds = shortestSeconds
        self.longestSeconds = longestSeconds
        self.severity = severity
        self.startsDown = startsDown
    }

    /// The longest outage a world may draw or a user may ask for (a day).
    package static let longestLimitSeconds = 86_400

    /// What is out of range, or nil.
    package var problem: String? {
        guard startsPerHour.isFinite, startsPerHour >= 0, startsPerHour <= 60 else { return "outage \(service): startsPerHour \(startsPerHour) is not in 0...60" }
        guard shortestSeconds >= 1, shortestSeconds <= longestSeconds, longestSeconds <= Self.longestLimitSeconds else {
            return "outage \(service): lengths \(shortestSeconds)...\(longestSeconds) s must satisfy 1 <= shortest <= longest <= \(Self.longestLimitSeconds)"
        }
        guard severity.isFinite, severity >= 0, severity <= 1 else { return "outage \(service): severity \(severity) is not in 0...1" }
        return nil
    }

    /// `outage sendgrid 2/h 60–3600 s at 1.0 (down at the start)`.
    public var description: String {
        "outage \(service) \(startsPerHour)/h \(shortestSeconds)–\(longestSeconds) s at \(severity)\(startsDown ? " (down at the start)" : "")"
    }

    /// `service:perHour:shortest:longest:severity[:down]`, as `--outage` takes it.
    package var argument: String {
        "\(service):\(startsPerHour):\(shortestSeconds):\(longestSeconds):\(severity)\(startsDown ? ":down" : "")"
    }

    /// Parses `service:perHour:shortest:longest:severity[:down]` (nil when malformed).
    package init?(argument text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5 || (parts.count == 6 && parts[5] == "down"), !parts[0].isEmpty,
              let perHour = Double(parts[1]), let shortest = Int(parts[2]), let longest = Int(parts[3]), let severity = Double(parts[4])
        else { return nil }
        self.init(service: parts[0], startsPerHour: perHour, shortestSeconds: shortest, longestSeconds: longest, severity: severity, startsDown: parts.count == 6)
    }
}
