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
                    print("  --param \(parameter.name)=\(parameter.defaultValue)  (\(parameter.minimum)...\(parameter.maximum)) \(parameter.summary)")
                }
                print("  variants: \(scenario.variants.joined(separator: ", "))")
            }
        }
    }
}
