import Foundation
import Testing

/// `rehearse timeline`: the shipped example reproduces its golden table; malformed files exit 2 with one line.
@Suite struct TimelineCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func exampleMatchesGoldenTable() throws {
        let example = Self.root.appendingPathComponent("docs/examples/checkins.csv").path
        let golden = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/checkins.timeline.txt"), encoding: .utf8)
        let (status, output) = try rehearse(["timeline", example])
        #expect(status == 0, "\(output)")
        #expect(output.replacingOccurrences(of: example, with: "docs/examples/checkins.csv") == golden)
        #expect(output.contains("69h 00m") && output.contains("72h 00m") && output.contains("Jan 12, 2026 at 10:00 PM PST"))
    }

    @Test(arguments: [
        "timestamp,user,event\n2026-01-12T22:00:00,alice,checkin\n", "timestamp,user\n1,alice\n",
        "timestamp,user,event\n1768284000,alice,dance\n", "timestamp,user,event,timezone\n1768284000,alice,checkin,Mars/Olympus\n",
    ])
    func malformedFileExitsTwo(content: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(abs(content.hashValue)).csv")
        try content.write(to: file, atomically: true, encoding: .utf8)
        let (status, output) = try rehearse(["timeline", file.path])
        #expect(status == 2, "\(output)")
        #expect(output.split(separator: "\n").count == 1)
        #expect(output.contains(file.path + ":"), "\(output)")
    }
}
