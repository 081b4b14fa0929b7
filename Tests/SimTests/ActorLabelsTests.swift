import Testing
@testable import Sim

/// `ActorLabels` (one byte run for every actor's name) against `[String]` as the model, and the
/// names a simulation reports for the actors it created.
@Suite struct ActorLabelsTests {
    @Test("names come back byte for byte: empty, long, non-ASCII, decomposed accents")
    func namesRoundTrip() {
        let names = ["nonisolated", "", "doc/notifications/0123456789abcdefghij", "a", "café", "cafe\u{301}", "日本/🙂", "", "x"]
        var labels = ActorLabels()
        for (count, name) in names.enumerated() {
            labels.append(name)
            #expect(labels.count == count + 1)
        }
        #expect(Array(labels) == names)
        for (ordinal, name) in names.enumerated() {
            #expect(Array(labels[ordinal].utf8) == Array(name.utf8), "ordinal \(ordinal)")
        }
        #expect(ActorLabels(names) == labels)
        #expect(ActorLabels(names.dropLast()) != labels)
    }

    @Test("a run reports each executor's name under its ordinal")
    func simulationReportsLabels() {
        let result = Simulation.run(SimulationConfiguration(seed: 1, strategy: .random)) { () async -> [String] in
            let executors = (0..<300).map { SimExecutor("actor-\($0)-é") }
            return executors.map(\.label)
        }
        let expected = ["nonisolated"] + (0..<300).map { "actor-\($0)-é" }
        #expect(Array(result.actorLabels) == expected)
        #expect(result.output == Array(expected.dropFirst()))
    }
}
