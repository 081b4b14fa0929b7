/// The first phase of shrinking a failure found in a drawn world: every drawn parameter moves back
/// toward its default and keeps the value nearest the default that still fails; fault knobs and
/// outages the failure does not need are dropped. What stays is what the failure needs, said as a
/// user reads it: "needs durationSeconds >= 3600", "fails only when seats < users".
struct WorldShrinker {
    /// The scenario's declarations.
    let scenario: any Scenario
    /// Whether a candidate request still fails the same way (counts a run).
    let stillFails: (RunRequest) -> Bool

    /// What the world phase kept and why.
    struct Outcome {
        /// The request with the world moved as far toward the defaults as the failure allows.
        var request: RunRequest
        /// One line per thing the failure needs.
        var needs: [String]
    }

    /// Shrinks `request`'s world (its drawn parameters are folded into `request.parameters` by the caller, named in `drawn`).
    func shrink(_ request: RunRequest, drawn: [String]) -> Outcome {
        var current = request
        var needs: [String] = []
        var needed: [String] = []
        for name in drawn {
            guard let spec = scenario.parameters.first(where: { $0.name == name }), let value = current.parameters[name] else { continue }
            if let kept = towardDefault(spec, from: value, in: &current) {
                needed.append(name)
                needs.append(kept > spec.defaultValue ? "needs \(name) >= \(kept)" : "needs \(name) <= \(kept)")
            }
        }
        needs = relations(among: needed, in: current) + needs
        if var world = current.world {
            for name in world.faults.keys.sorted() {
                var candidate = current
                candidate.world?.faults[name] = nil
                if stillFails(candidate) { current = candidate; world = candidate.world! } else { needs.append("needs fault \(name)=\(world.faults[name]!)") }
            }
            for outage in world.outages {
                var candidate = current
                candidate.world?.outages.removeAll { $0.service == outage.service }
                if stillFails(candidate) { current = candidate } else { needs.append("needs \(outage)") }
            }
        }
        return Outcome(request: current, needs: needs)
    }

    /// Moves `spec` from `value` toward its default: the default itself when the failure does not
    /// need the parameter (nil), else the failing value nearest the default (binary search).
    func towardDefault(_ spec: ScenarioParameter, from value: Int, in current: inout RunRequest) -> Int? {
        guard value != spec.defaultValue else { return nil }
        var candidate = current
        candidate.parameters[spec.name] = spec.defaultValue
        if stillFails(candidate) { current = candidate; return nil }
        var failing = value, passing = spec.defaultValue
        while abs(failing - passing) > 1 {
            let middle = passing + (failing - passing) / 2
            var probe = current
            probe.parameters[spec.name] = middle
            if stillFails(probe) { failing = middle; current = probe } else { passing = middle }
        }
        current.parameters[spec.name] = failing
        return failing
    }

    /// "fails only when a < b" for related pairs the failure needs, when making them equal passes.
    func relations(among needed: [String], in current: RunRequest) -> [String] {
        var lines: [String] = []
        for constraint in scenario.constraints {
            guard let (a, b) = constraint.related, needed.contains(a) || needed.contains(b),
                  let valueA = current.parameters[a], let valueB = current.parameters[b], valueA != valueB else { continue }
            var equal = current
            equal.parameters[needed.contains(a) ? a : b] = needed.contains(a) ? valueB : valueA
            if !stillFails(equal) { lines.append("fails only when \(a) \(valueA < valueB ? "<" : ">") \(b)") }
        }
        return lines
    }
}
