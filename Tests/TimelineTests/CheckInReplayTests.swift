import Foundation
import Testing
@testable import Timeline

/// `rehearse timeline`'s engine: a real check-in log replayed through SafeNSound's functions.
@Suite struct CheckInReplayTests {
    @Test func replayReproducesTheSeedsSeventyTwoHourExample() throws {
        let csv = """
        timestamp,user,event,timezone
        2026-01-12T22:00:00-08:00,alice,checkin,America/Los_Angeles
        """
        let rows = try CheckInReplay.run(try CheckInEvent.parse(csv, file: "x.csv"))
        #expect(rows.map(\.what).first == "check-in (onboarding: threshold 72 h, America/Los_Angeles)")
        let push = try #require(rows.first { $0.what.hasPrefix("push") })
        #expect(push.sinceLastCheckIn == .seconds(69 * 3600))
        let email = try #require(rows.first { $0.what.hasPrefix("email") })
        #expect(email.sinceLastCheckIn == .seconds(72 * 3600))
        #expect(email.what.contains("Last check-in: Jan 12, 2026 at 10:00 PM PST"))
    }

    @Test(arguments: [
        ("timestamp,user,event\n2026-01-12T22:00:00,a,checkin\n", "x.csv:2:1: bad timestamp"),
        ("timestamp,user\n1,a\n", "x.csv:1: missing column 'event'"),
        ("timestamp,user,event\n1,a,dance\n", "x.csv:2:5: unknown event 'dance'"),
        ("timestamp,user,event,timezone\n1,a,checkin,Mars/Olympus\n", "x.csv:2:13: unknown time zone"),
        ("timestamp,user,event\n1,a,set-threshold:12\n", "x.csv:2:5: bad threshold"),
        ("[{\"timestamp\": 1, \"user\": \"a\"}]", "x.csv:1: entry 1: missing 'event'"),
    ])
    func malformedFilesNameLineAndProblem(text: String, expected: String) {
        do {
            _ = try CheckInEvent.parse(text, file: "x.csv")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
    }
}
