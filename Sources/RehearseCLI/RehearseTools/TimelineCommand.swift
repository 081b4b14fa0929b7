import ArgumentParser
import Domain
import FirebaseHarness
import Foundation
import Harness
import RehearseCLI
import Scenarios
import Timeline
import SimulatedFirebase

extension Rehearse {
    /// `rehearse timeline <events.csv|json>`: replays real SafeNSound check-ins on the simulator
    /// and prints which alerts fire when. A report.json (or its timeline) prints per-user timelines.
    struct TimelineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timeline",
            abstract: "Replay SafeNSound check-ins (CSV/JSON) and print when alerts fire; or print a report.json's timelines.",
            discussion: """
            Columns: timestamp (ISO-8601 with an offset, or epoch seconds), user, event, optional timezone \
            (IANA name). Events: checkin, set-threshold:<24|48|72>, set-timezone:<IANA id>, pause, resume, \
            add-contact:<email>, remove-contact:<email>, edit-contact:<old>-><new>, email-fails:<minutes>, \
            push-fails:<minutes>. Format: docs/timeline.md; example: docs/examples/checkins.csv.
            """)

        @Argument(help: "events.csv or events.json (check-ins), or a report.json.") var events: String

        @Option(help: "SafeNSound design to replay: \(SafeNSoundVariant.allCases.map(\.rawValue).joined(separator: ", ")) (default: careful).", transform: ArgumentValue.safeNSoundDesign)
        var variant: SafeNSoundVariant = .careful

        func run() throws {
            let data: Data
            do { data = try InputFile.read(events) } catch { throw InputError.fail(error.description) }
            if events.hasSuffix(".json"), let report = try? JSONDecoder().decode(RunReport.self, from: data) {
                printTimelines(report.timeline)
                return
            }
            let parsed: [CheckInEvent]
            do {
                parsed = try CheckInEvent.parse(data, file: events)
                try CheckInReplay.validate(parsed, file: events)
            } catch { throw InputError.fail(error.description) }
            let rows: [CheckInReplay.Row]
            do { rows = try CheckInReplay.run(parsed, variant: variant) } catch {
                throw RehearseError.failed(error.description)
            }
            let what = variant == .careful ? "careful design" : "variant \(variant.rawValue): \(variant.summary)"
            let title = "SafeNSound timeline for \(events) (\(what); pre-notification 3 h before the threshold)\n\n"
            FileHandle.standardOutput.write(Data(title.utf8))
            CheckInReplay.writeTable(rows) { FileHandle.standardOutput.write(Data($0)) }
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
