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

    @Test("shared directories, chunk boundaries and a name longer than a chunk come back byte for byte")
    func namesAcrossDirectoriesAndChunks() {
        // Random names over an alphabet rich in `/` (empty directories, trailing and leading
        // slashes, directories shorter than their number), enough bytes to fill several chunks,
        // and one name longer than a chunk in the middle.
        var generator = SplitMix(seed: 28)
        let alphabet = Array("ab/é/c/日/".unicodeScalars)
        var names = ["nonisolated"]
        for index in 0..<20_000 {
            if index == 9_000 {
                names.append("doc/huge/" + String(repeating: "x", count: ActorLabels.chunkSize + 17))
                continue
            }
            let length = Int(generator.next() % 40)
            var name = String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
            if generator.next() % 2 == 0 { name = "doc/users/u\(generator.next() % 300)/notifications/" + name }
            names.append(name)
        }
        let labels = ActorLabels(names)
        #expect(labels.count == names.count)
        var mismatches = 0
        for (ordinal, name) in names.enumerated() where Array(labels[ordinal].utf8) != Array(name.utf8) { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(ActorLabels(names) == labels)
        var shorter = names
        shorter[names.count / 2] += "!"
        #expect(ActorLabels(shorter) != labels)
    }

    @Test("canonically equal directories keep their own bytes, and label sequences that differ in them differ")
    func directoriesAreBytesNotCanonicalStrings() {
        let composed = ["x", "doc/caf\u{E9}/a", "doc/cafe\u{301}/b", "doc/caf\u{E9}/c"]
        let labels = ActorLabels(composed)
        for (ordinal, name) in composed.enumerated() {
            #expect(Array(labels[ordinal].utf8) == Array(name.utf8), "ordinal \(ordinal)")
        }
        #expect(ActorLabels(["x", "doc/caf\u{E9}/a"]) != ActorLabels(["x", "doc/cafe\u{301}/a"]))
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

/// A tiny deterministic generator for the tests above (SplitMix64).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
