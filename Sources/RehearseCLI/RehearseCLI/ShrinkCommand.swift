import ArgumentParser
import Foundation
import Harness
import Sim

extension Rehearse {
    /// `rehearse shrink <failure.json>`: minimises a failure (parameters, fault kinds,
    /// preemptions) and writes the smallest failing case as a replayable artifact with a story.
    struct ShrinkCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "shrink", abstract: "Shrink a failure artifact to its smallest failing case.")

        @Argument(help: "A failure artifact written by fuzz.")
        var artifact: String
        @Option(name: .long, parsing: .unconditional, help: "Runs the shrinker may spend.")
        var maxRuns: Int = FailureShrinker.defaultMaxRuns
        @Option(name: .long, parsing: .unconditional, help: "Where to write the shrunk artifact (default: beside the input, *.shrunk.json).")
        var output: String?

        func run() throws {
            try Limits.check(maxRuns, in: Limits.shrinkRuns, option: "--max-runs", limit: "shrinkRuns")
            if let output {
                guard !output.isEmpty else { throw InputError.fail("--output is empty") }
                do { try AtomicFile.refuseUnusualTarget(output) } catch { throw InputError.fail("--output: \(error.description)") }
            }
            let data: Data
            do { data = try InputFile.read(artifact, limit: ScenarioLimits.maxArtifactBytes) } catch { throw InputError.fail(error.description) }
            let failure: FailureArtifact
            var request: RunRequest
            do {
                guard let decoded = try FailureArtifact.decode(data, path: artifact) else { throw ScenarioError.unreadableArtifact(path: artifact, reason: "not a failure artifact (no decisions/kind)") }
                failure = decoded
                request = try failure.replayRequest(gitCommit: Fingerprint.current.commit)
            } catch let error as ScenarioError {
                if case .unreadableArtifact = error { throw InputError.fail(error.description) }
                throw InputError.fail("\(artifact): \(error.description)")
            }
            guard failure.kind != .crash, failure.kind != .nondeterminism else {
                throw InputError.fail("\(artifact): a \(failure.kind) artifact cannot be shrunk (replay it instead)")
            }
            request.decisions = nil
            let shrunk: FailureShrinker.Result
            do { shrunk = try FailureShrinker.shrink(request, maxRuns: maxRuns) } catch { throw InputError.fail("\(artifact): \(error.description)") }
            let directory = (artifact as NSString).deletingLastPathComponent
            let path = output ?? (directory.isEmpty ? shrunk.artifact.fileName : "\(directory)/\(shrunk.artifact.fileName)")
            try shrunk.artifact.write(to: path)
            FuzzCommand.printShrunk(shrunk.artifact, path: path)
        }
    }
}
