import Foundation
import Testing

/// Code describes the present: no comment in Sources/ narrates history ("Stop 31", "issue 14",
/// "Before, …", the measured cost of a past change); history lives in git log.
@Suite struct SourceHygieneTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Patterns of history narration, each with what it catches.
    static let markers: [(pattern: String, meaning: String)] = [
        (#"\b[Ss]top [0-9]+\b"#, "a stop number"),
        (#"\b[Ii]ssue [0-9]+\b"#, "an issue number"),
        (#"\bBefore, "#, "a before/after narrative"),
        (#"[0-9.]+ ?% of (a|an|the|its) ?[A-Za-z-]* ?(seed|run|test|sweep|worker|instructions)\b"#, "a measured share of a past change"),
    ]

    @Test func noSourceCommentNarratesHistory() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 100, "the walk found the sources")
        let expressions = try Self.markers.map { (try Regex($0.pattern), $0.meaning) }
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let comment = line.range(of: "//") else { continue }
                let commentText = line[comment.lowerBound...]
                for (expression, meaning) in expressions where commentText.contains(expression) {
                    found.append("Sources/\(file):\(number + 1): \(meaning): \(commentText.prefix(100))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.count) comment(s) narrate history:\n\(found.joined(separator: "\n"))")
    }

    /// Sim's `QueueExecutor` and SimulatedFirebase's `SerialQueueExecutor` are one design in two
    /// modules that cannot share code (Sim imports no target; SimulatedFirebase does not import
    /// Sim): their class bodies stay the same text, apart from `public` and the name.
    @Test func theSerialQueueTwinsAreTheSameCode() throws {
        func body(_ path: String, _ declaration: String) throws -> String {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let start = try #require(text.range(of: declaration), "\(path) declares \(declaration)")
            return text[start.upperBound...].replacingOccurrences(of: "public ", with: "")
        }
        let kernel = try body("Sources/Sim/QueueExecutor.swift", "public final class QueueExecutor:")
        let domain = try body("Sources/Domain/SimulatedFirebase/Runtime/ConcurrentPoolExecutorSource.swift", "final class SerialQueueExecutor:")
        #expect(kernel == domain, "QueueExecutor and SerialQueueExecutor differ; change both")
    }
}
