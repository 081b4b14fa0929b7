import ChildProcess
import Foundation
import Testing

/// docs/scenarios.md's ranges and constraints are the code's: `scripts/scenario-ranges` (from
/// `rehearse list`) prints exactly the list at the end of the page.
@Suite struct ScenarioRangesDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theDocumentedRangesAreTheCodes() throws {
        let script = Self.root.appendingPathComponent("scripts/scenario-ranges").path
        let run = try ChildProcess.run("/usr/bin/env", ["python3", script, CommandLineRunner.binary.path], directory: Self.root.path)
        #expect(run.status == 0, "\(run.error)")
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
        let generated = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!generated.isEmpty && doc.contains(generated), "docs/scenarios.md's ranges differ from `rehearse list`: run scripts/scenario-ranges and paste its output at the end of the page")
    }
}
