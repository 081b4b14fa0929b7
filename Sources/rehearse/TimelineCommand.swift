import ArgumentParser
import Foundation
import Scenarios

extension Rehearse {
    /// `rehearse timeline <events.csv|json>`: per-user timeline as text (CSV `user,timeNanoseconds,event`,
    /// a JSON array of such entries, or a report.json's timeline).
    struct TimelineCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "timeline", abstract: "Print per-user timelines of events.")

        @Argument(help: "events.csv, events.json or report.json.") var events: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: events) else { throw InputError.fail("cannot read \(events): no such file") }
            var entries: [TimelineEntry] = []
            if events.hasSuffix(".csv") {
                for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
                    let fields = line.split(separator: ",", maxSplits: 2).map(String.init)
                    if number == 0 && fields.first == "user" { continue }
                    guard fields.count == 3, let time = UInt64(fields[1]) else { throw InputError.fail("\(events) line \(number + 1): expected user,timeNanoseconds,event") }
                    entries.append(TimelineEntry(user: fields[0], timeNanoseconds: time, event: fields[2]))
                }
            } else if let list = try? JSONDecoder().decode([TimelineEntry].self, from: data) {
                entries = list
            } else if let report = try? JSONDecoder().decode(RunReport.self, from: data) {
                entries = report.timeline
            } else {
                throw InputError.fail("\(events) is neither a CSV, a JSON array of timeline entries nor a report.json")
            }
            for user in Set(entries.map(\.user)).sorted() {
                print(user)
                for entry in entries.filter({ $0.user == user }).sorted(by: { $0.timeNanoseconds < $1.timeNanoseconds }) {
                    print("  \(ReportFormat.duration(entry.timeNanoseconds).padding(toLength: 10, withPad: " ", startingAt: 0)) \(entry.event)")
                }
            }
        }
    }
}
