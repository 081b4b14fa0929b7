import Domain
import Foundation

/// One row of a real user's SafeNSound history: a check-in, a threshold change or a time-zone change.
public struct CheckInEvent: Sendable, Equatable {
    /// What the user did.
    public enum Action: Sendable, Equatable {
        case checkIn
        case setThreshold(hours: Int)
        /// Takes effect with the next check-in (the app sends `TimeZone.current` with each heartbeat).
        case setTimeZone(String)
    }

    public let time: Timestamp
    public let user: String
    public let action: Action
    /// The device's time zone at this event, if the row gives one.
    public let timeZone: String?
    /// Line (CSV) or entry (JSON) number in the source file.
    public let line: Int

    /// Parses a CSV (`timestamp,user,event[,timezone]` header) or a JSON array of objects with
    /// those keys. Timestamps are ISO-8601 with an offset or epoch seconds; events are `checkin`,
    /// `set-threshold:<24|48|72>` or `set-timezone:<IANA id>`.
    public static func parse(_ text: String, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("[") { return try parseJSON(trimmed, file: file) }
        return try parseCSV(text, file: file)
    }

    static func parseCSV(_ text: String, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
        guard let headerLine = lines.first, !headerLine.isEmpty else { throw CheckInReplayError(file: file, line: 1, problem: "empty file; expected a header timestamp,user,event[,timezone]") }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for required in ["timestamp", "user", "event"] where !header.contains(required) {
            throw CheckInReplayError(file: file, line: 1, problem: "missing column '\(required)' in header (expected timestamp,user,event[,timezone])")
        }
        var events: [CheckInEvent] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty && !line.hasPrefix("#") {
            let values = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard values.count == header.count else {
                throw CheckInReplayError(file: file, line: index + 1, problem: "expected \(header.count) columns (\(header.joined(separator: ","))), found \(values.count)")
            }
            var row: [String: String] = [:]
            for (name, value) in zip(header, values) { row[name] = value }
            events.append(try event(row, file: file, line: index + 1))
        }
        return events
    }

    static func parseJSON(_ text: String, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw CheckInReplayError(file: file, line: 0, problem: "not a JSON array of {timestamp, user, event, timezone?} objects")
        }
        var events: [CheckInEvent] = []
        for (index, element) in array.enumerated() {
            guard let object = element as? [String: Any] else {
                throw CheckInReplayError(file: file, line: index + 1, problem: "entry is not an object")
            }
            var row: [String: String] = [:]
            for (key, value) in object {
                if let string = value as? String { row[key.lowercased()] = string } else if let number = value as? NSNumber { row[key.lowercased()] = number.stringValue }
            }
            for required in ["timestamp", "user", "event"] where row[required] == nil {
                throw CheckInReplayError(file: file, line: index + 1, problem: "missing '\(required)'")
            }
            events.append(try event(row, file: file, line: index + 1))
        }
        return events
    }

    static func event(_ row: [String: String], file: String, line: Int) throws(CheckInReplayError) -> CheckInEvent {
        func fail(_ problem: String) -> CheckInReplayError { CheckInReplayError(file: file, line: line, problem: problem) }
        let rawTime = row["timestamp"] ?? ""
        guard let time = timestamp(rawTime) else { throw fail("bad timestamp '\(rawTime)': expected ISO-8601 with offset (2026-01-12T22:00:00-08:00) or epoch seconds") }
        guard let user = row["user"], !user.isEmpty else { throw fail("empty user") }
        var timeZone: String?
        if let zone = row["timezone"], !zone.isEmpty {
            guard SafeNSoundLastCheckInFormatter.isKnownTimeZone(zone) else { throw fail("unknown time zone '\(zone)'") }
            timeZone = zone
        }
        let rawEvent = row["event"] ?? ""
        let action: Action
        if rawEvent == "checkin" {
            action = .checkIn
        } else if rawEvent.hasPrefix("set-threshold:") {
            let hours = Int(rawEvent.dropFirst("set-threshold:".count)) ?? -1
            guard SafeNSoundConfiguration().allowedThresholdHours.contains(hours) else { throw fail("bad threshold in '\(rawEvent)': SafeNSound offers 24, 48 or 72 hours") }
            action = .setThreshold(hours: hours)
        } else if rawEvent.hasPrefix("set-timezone:") {
            let zone = String(rawEvent.dropFirst("set-timezone:".count))
            guard SafeNSoundLastCheckInFormatter.isKnownTimeZone(zone) else { throw fail("unknown time zone '\(zone)'") }
            action = .setTimeZone(zone)
        } else {
            throw fail("unknown event '\(rawEvent)': expected checkin, set-threshold:<hours> or set-timezone:<IANA id>")
        }
        return CheckInEvent(time: time, user: user, action: action, timeZone: timeZone, line: line)
    }

    /// ISO-8601 with an explicit offset (or Z), or integer epoch seconds.
    static func timestamp(_ text: String) -> Timestamp? {
        if let seconds = Int64(text) { return Timestamp(unixSeconds: seconds) }
        let hasOffset = text.hasSuffix("Z") || text.range(of: #"[+-]\d\d:?\d\d$"#, options: .regularExpression) != nil
        guard text.contains("T"), hasOffset else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Timestamp(unixSeconds: Int64(date.timeIntervalSince1970)) }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Timestamp(unixNanoseconds: Int64(($0.timeIntervalSince1970 * 1e9).rounded())) }
    }
}
