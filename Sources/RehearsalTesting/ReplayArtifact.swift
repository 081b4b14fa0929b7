import Foundation
import Harness

/// Reading a failure artifact for `Rehearsal.replay(_:artifact:)`: the file, its schema and the
/// scenario it names, each problem one typed error naming the path.
enum ReplayArtifact {
    /// The artifact at `path`, which must be a failure artifact of `scenario`.
    static func read(_ path: String, scenario: String) throws(ScenarioError) -> FailureArtifact {
        let data: Data
        do { data = try InputFile.read(path, limit: ScenarioLimits.maxArtifactBytes) } catch {
            throw .unreadableArtifact(path: path, reason: "\(error.description) (working directory \(FileManager.default.currentDirectoryPath))")
        }
        guard let artifact = try FailureArtifact.decode(data, path: path) else {
            throw .unreadableArtifact(path: path, reason: "not a failure artifact (no decisions/kind)")
        }
        guard artifact.scenario == scenario else {
            throw .unreadableArtifact(path: path, reason: "it records scenario \(artifact.scenario), not \(scenario)")
        }
        guard artifact.kind != .crash else {
            throw .unreadableArtifact(path: path, reason: "a crash artifact replays in a child process, never inside a test: `rehearse replay \(path)`")
        }
        return artifact
    }
}
