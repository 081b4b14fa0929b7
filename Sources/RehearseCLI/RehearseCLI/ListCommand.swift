import ArgumentParser
import Harness

extension Rehearse {
    /// `rehearse list`: every scenario with its parameters and the variants it catches.
    struct ListCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List scenarios, parameters and variants.")

        func run() throws {
            for scenario in ScenarioRegistry.all {
                print("\(scenario.name): \(scenario.summary)")
                for parameter in scenario.parameters {
                    var notes: [String] = []
                    if parameter.cost == .linear { notes.append("size") }
                    if !parameter.notable.isEmpty { notes.append("notable \(parameter.notable.map(String.init).joined(separator: ", "))") }
                    if !parameter.drawn { notes.append("never drawn") }
                    print("  --param \(parameter.name)=\(parameter.defaultValue)  (\(parameter.minimum)...\(parameter.maximum)\(notes.isEmpty ? "" : "; " + notes.joined(separator: "; "))) \(parameter.summary)")
                }
                if !scenario.constraints.isEmpty {
                    print("  constraints: \(scenario.constraints.map(\.description).joined(separator: "; "))")
                }
                print("  variants: \(scenario.variants.joined(separator: ", "))")
                let knobs = scenario.worldKnobs
                if !knobs.isEmpty {
                    print("  world knobs: --fault \(knobs.faults.map { "\($0.name) (\($0.defaultRate), up to \($0.ceiling))" }.joined(separator: ", ")); --outage \(knobs.outages.joined(separator: ", "))")
                }
            }
        }
    }
}
