import ArgumentParser
import Foundation
import Scenarios

extension Rehearse {
    /// `rehearse timeline <events.csv|json>`: replays real SafeNSound check-ins on the simulator
    /// and prints which alerts fire when. A report.json (or its timeline) prints per-user timelines.
    struct TimelineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Replay SafeNSound check-ins (CSV/JSON) and print when alerts fire; or print a report.json's timelines.",
            discussion: """
            Rows: timestamp (ISO-8601 with offset, or epoch seconds), user, event (checkin | set-threshold:<24|48|72> | \
            set-timezone:<IANA id>), optional timezone. Example: docs/examples/checkins.csv.
            """)

        @Argument(help: "events.csv or events.json (check-ins), or a report.json.") var events: String

        func run() throws {
            let data: Data
            do { data = try InputFile.read(events) } catch { throw InputError.fail(error.description) }
            let text = String(decoding: data, as: UTF8.self)
            if events.hasSuffix(".json"), let report = try? JSONDecoder().decode(RunReport.self, from: data) {
                printTimelines(report.timeline)
                return
            }
            let parsed: [CheckInEvent]
            do { parsed = try CheckInEvent.parse(text, file: events) } catch { throw InputError.fail(error.description) }
            guard !parsed.isEmpty else { throw InputError.fail("\(events): no events") }
            print("SafeNSound timeline for \(events) (careful design; pre-notification 3 h before the threshold)\n")
            print(CheckInReplay.table(CheckInReplay.run(parsed)), terminator: "")
        }

        private func printTimelines(_ entries: [TimelineEntry]) {
            for user in Set(entries.map(\.user)).sorted() {
                print(user)
                for entry in entries.filter({ $0.user == user }).sorted(by: { $0.timeNanoseconds < $1.timeNanoseconds }) {
                    print("  \(ReportFormat.duration(entry.timeNanoseconds).padding(toLength: 10, withPad: " ", startingAt: 0)) \(entry.event)")
                }
            }
        }
    }
}
