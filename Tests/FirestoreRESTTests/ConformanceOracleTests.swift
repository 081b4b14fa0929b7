import Conformance
import FirestoreREST
import Foundation
import RehearsalTestSupport
import Testing

/// The differential oracle against the emulator: generated programs agree with the simulation
/// except where docs/real-firestore.md documents why, and the code's list of documented
/// divergences is the doc's.
@Suite struct ConformanceOracleTests {
    @Test(.needsFirestoreEmulator, .tags(.subprocess)) func generatedProgramsAgreeOrDifferOnlyAsDocumented() async throws {
        let emulator = try await SharedEmulator.shared.emulator()
        let oracle = ConformanceOracle(client: FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-oracle-test"), projectPrefix: "demo-oracle-test")
        var table = ConformanceTable()
        for seed in UInt64(0)..<120 { table.add(try await oracle.check(seed: seed)) }
        #expect(table.undocumented.isEmpty, "\(table.undocumented.prefix(3).map(\.description).joined(separator: "\n"))")
        #expect(table.agreementPercent > 95, "\(table.text)")
        #expect(table.rows.count >= 30, "the programs reach every operator, transform and write form: \(table.rows.keys.sorted())")
    }

    @Test func theDocumentedDivergencesAreTheOraclesList() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/real-firestore.md"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex(of: "| divergence | source | what differs |"))
        let documented = lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|")[0].trimmingCharacters(in: CharacterSet(charactersIn: " `"))
        }
        #expect(documented == KnownDivergence.all.map(\.name))
    }
}
