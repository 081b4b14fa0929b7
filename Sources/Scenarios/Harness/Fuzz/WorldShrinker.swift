/// The first phase of shrinking a failure found in a drawn world: every drawn parameter moves back
/// toward its default and keeps the value nearest the default that still fails; fault knobs and
/// outages the failure does not need are dropped. What stays is what the failure needs, said as a
/// user reads it: "needs durationSeconds >= 3600", "fails only when seats < users".
///
/// The shrink speaks of one seed's schedule, so each statement is checked before it is made: the
/// relaxed world (the value one step toward the default, the fault or outage off, the pair made
/// equal) runs `verificationSeeds` other seeds, and only if none of them fails the same way is the
/// statement printed as a need ("(relaxed: N other seeds passed)"). Otherwise the line says what was
/// tried and which seed refuted it, and nothing stronger.
struct WorldShrinker {
    /// The scenario's declarations.
    let scenario: any Scenario
    /// Whether a candidate request still fails the same way (counts a run).
    let stillFails: (RunRequest) -> Bool
    /// Another seed on which a relaxed request still fails the same way (nil: none of the
    /// `verificationSeeds` did).
    var refutingSeed: (RunRequest) -> UInt64? = { _ in nil }
    /// How many other seeds a statement is checked on.
    var verificationSeeds = 0

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
                var relaxed = current
                relaxed.parameters[name] = kept > spec.defaultValue ? kept - 1 : kept + 1
                let claim = kept > spec.defaultValue ? "needs \(name) >= \(kept)" : "needs \(name) <= \(kept)"
                needs.append(checked(claim, relaxed: relaxed, tried: "\(name) \(relaxed.parameters[name]!)"))
            }
        }
        needs = relations(among: needed, in: current) + needs
        if var world = current.world {
            for name in world.faults.keys.sorted() {
                var candidate = current
                candidate.world?.faults[name] = nil
                if stillFails(candidate) {
                    current = candidate
                    world = candidate.world!
                } else {
                    needs.append(checked("needs fault \(name)=\(world.faults[name]!)", relaxed: candidate, tried: "fault \(name) off"))
                }
            }
            for outage in world.outages {
                var candidate = current
                candidate.world?.outages.removeAll { $0.service == outage.service }
                if stillFails(candidate) {
                    current = candidate
                } else {
                    needs.append(checked("needs \(outage)", relaxed: candidate, tried: "\(outage.service) outages off"))
                }
            }
        }
        return Outcome(request: current, needs: needs)
    }

    /// `claim` when `relaxed` passes every verification seed; else what was tried and the seed
    /// that still failed (this seed's schedule passed relaxed, another's did not).
    func checked(_ claim: String, relaxed: RunRequest, tried: String) -> String {
        guard verificationSeeds > 0 else { return "\(claim) (seed \(relaxed.seed) only: not checked on other seeds)" }
        if let seed = refutingSeed(relaxed) {
            return "not a need: with \(tried) this seed passed, but seed \(seed) still fails (\(claim) holds for this seed's schedule only)"
        }
        return "\(claim) (with \(tried): this seed and \(verificationSeeds) others passed)"
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
            if !stillFails(equal) {
                lines.append(checked("fails only when \(a) \(valueA < valueB ? "<" : ">") \(b)", relaxed: equal, tried: "\(a) = \(b)"))
            }
        }
        return lines
    }
}
