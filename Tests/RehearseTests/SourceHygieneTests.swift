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
}
