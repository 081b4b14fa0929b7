import Foundation
import Harness
import Sim

/// Writes a sweep result's page (`sweep.html` next to `sweep.json`) through the atomic writer,
/// with the stories of its first failures read back from their artifacts.
enum SweepPage {
    /// Failures whose artifacts are read for their stories.
    static let maxStories = 20

    /// `sweep.json` → `sweep.html` (any other name: `.html` appended).
    static func path(for resultPath: String) -> String {
        resultPath.hasSuffix(".json") ? String(resultPath.dropLast(5)) + ".html" : resultPath + ".html"
    }

    /// Writes the page of `result` (saved at `resultPath`); `shrunk` is the shrunk artifact of its
    /// first failure, when `fuzz` made one. Returns the page's path.
    @discardableResult
    static func write(_ result: SweepResult, resultPath: String, shrunk: (artifact: FailureArtifact, path: String)? = nil) throws -> String {
        var stories: [ReportWriter.SweepStory] = []
        for failure in result.failures.prefix(maxStories) {
            if let shrunk, shrunk.artifact.seed == failure.seed {
                stories.append(.init(seed: failure.seed, lines: shrunk.artifact.story, shrunkArtifact: shrunk.path))
                continue
            }
            guard let path = failure.artifact, let data = try? InputFile.read(path, limit: ScenarioLimits.maxArtifactBytes),
                  let artifact = try? FailureArtifact.decode(data, path: path) else { continue }
            stories.append(.init(seed: failure.seed, lines: artifact.story))
        }
        let page = path(for: resultPath)
        do { try AtomicFile.write(ReportWriter.sweepHTML(result, stories: stories), to: page) } catch {
            throw InputError.fail(error.description)
        }
        return page
    }
}
