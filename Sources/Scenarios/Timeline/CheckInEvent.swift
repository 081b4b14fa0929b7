import Domain
import FirebaseHarness
import Foundation
import Harness
import Scenarios
import SimulatedFirebase

/// One row of a real user's SafeNSound history: a check-in, a settings change (threshold, time
/// zone, monitoring paused or resumed, an emergency contact added, removed or edited) or a
/// provider outage for that user's messages (SendGrid or FCM failing for some minutes).
public struct CheckInEvent: Sendable, Equatable {
    /// What the user did (or what happened to their messages).
    public enum Action: Sendable, Equatable {
        case checkIn
        case setThreshold(hours: Int)
        /// Takes effect with the next check-in (the app sends `TimeZone.current` with each heartbeat).
        case setTimeZone(String)
        /// Settings: monitoring off (`isActive = false`): nothing is sent while paused.
        case pause
        /// Settings: monitoring on again; the current window goes on from the last check-in.
        case resume
        case addContact(String)
        case removeContact(String)
        case editContact(from: String, to: String)
        /// Every send on `channel` for this user fails (SendGrid 429, FCM transient) for `minutes`.
        case sendFailure(SafeNSoundMessage.Channel, minutes: Int)
    }

    /// When the event happens.
    public let time: Timestamp
    /// Whose event it is.
    public let user: String
    /// What happens.
    public let action: Action
    /// The device's time zone at this event, if the row gives one.
    public let timeZone: String?
    /// Line (CSV) or entry (JSON) number in the source file.
    public let line: Int

    /// An event with every field given.
    public init(time: Timestamp, user: String, action: Action, timeZone: String? = nil, line: Int) {
        self.time = time
        self.user = user
        self.action = action
        self.timeZone = timeZone
        self.line = line
    }

    /// The columns a file may have, in their usual order (`timezone` is optional).
    static let columns = ["timestamp", "user", "event", "timezone"]
    /// Longest user id accepted.
    static let maxUserLength = 128
    /// Longest outage a `email-fails:`/`push-fails:` row may declare (one week).
    static let maxOutageMinutes = 7 * 24 * 60
    /// What the `event` column may say.
    static let eventSyntax = "checkin, set-threshold:<24|48|72>, set-timezone:<IANA id>, pause, resume, add-contact:<email>, remove-contact:<email>, edit-contact:<old>-><new>, email-fails:<minutes> or push-fails:<minutes>"

    /// Parses a CSV (`timestamp,user,event[,timezone]` header, LF or CRLF, an optional UTF-8 BOM)
    /// or a JSON array of objects with those keys. Anything else is an error naming file, line
    /// and column: unknown or repeated columns, impossible dates, offsets beyond ±14:00, zone
    /// abbreviations, time zones that are not IANA names, unknown events.
    public static func parse(_ data: Data, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CheckInReplayError(file: file, line: 0, problem: "not UTF-8 text")
        }
        if text.utf8.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "[") {
            return try parseJSON(Data(text.utf8), file: file)
        }
        return try parseCSV(text, file: file)
    }

    /// Compatibility entry for text already decoded.
    public static func parse(_ text: String, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        try parse(Data(text.utf8), file: file)
    }

    /// Parses CSV text: a header naming the columns, then one event a line (blank lines and
    /// `#` comments skipped).
    static func parseCSV(_ text: String, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        let lines = splitLines(text.utf8)
        guard let headerLine = lines.first, !isBlank(headerLine) else {
            throw CheckInReplayError(file: file, line: 1, problem: "empty file; expected a header timestamp,user,event[,timezone]")
        }
        let header = try csvHeader(headerLine, file: file)
        var parser = RowParser(file: file)
        var events: [CheckInEvent] = []
        events.reserveCapacity(lines.count)
        for (offset, line) in lines.enumerated().dropFirst() where !isBlank(line) && line.first != UInt8(ascii: "#") {
            let number = offset + 1
            let values = fields(line)
            guard values.count == header.count else {
                throw CheckInReplayError(file: file, line: number, column: values.count > header.count ? values[header.count].column : 0,
                                         problem: "expected \(header.count) columns (\(header.joined(separator: ","))), found \(values.count)")
            }
            var row = RowParser.Row()
            for (name, field) in zip(header, values) {
                let value = (trimmed(field.text), field.column)
                switch name {
                case "timestamp": row.timestamp = value
                case "user": row.user = value
                case "event": row.event = value
                default: row.timezone = value
                }
            }
            events.append(try parser.event(row, line: number))
        }
        return events
    }

    /// The lines of `utf8`, split on LF with a CR before it dropped (a last line without LF included).
    static func splitLines(_ utf8: String.UTF8View) -> [Substring.UTF8View] {
        var lines: [Substring.UTF8View] = []
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == 0x0A {
                var end = index
                if end > start, utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
                lines.append(utf8[start..<end])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start < utf8.endIndex {
            var end = utf8.endIndex
            if utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
            lines.append(utf8[start..<end])
        }
        return lines
    }

    /// The header's column names, lowercased: each known, none twice, timestamp, user and event present.
    static func csvHeader(_ headerLine: Substring.UTF8View, file: String) throws(CheckInReplayError) -> [String] {
        var header: [String] = []
        for field in fields(headerLine) {
            let name = String(decoding: trimmed(field.text), as: UTF8.self).lowercased()
            let column = field.column
            guard columns.contains(name) else {
                throw CheckInReplayError(file: file, line: 1, column: column, problem: "unknown column '\(name.prefix(40))' (the columns are timestamp, user, event and optionally timezone)")
            }
            guard !header.contains(name) else {
                throw CheckInReplayError(file: file, line: 1, column: column, problem: "column '\(name)' appears twice")
            }
            header.append(name)
        }
        for required in ["timestamp", "user", "event"] where !header.contains(required) {
            throw CheckInReplayError(file: file, line: 1, problem: "missing column '\(required)' in header (expected timestamp,user,event[,timezone])")
        }
        return header
    }

    static func parseJSON(_ data: Data, file: String) throws(CheckInReplayError) -> [CheckInEvent] {
        guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw CheckInReplayError(file: file, line: 0, problem: "not a JSON array of {timestamp, user, event, timezone?} objects")
        }
        var parser = RowParser(file: file)
        var events: [CheckInEvent] = []
        for (index, element) in array.enumerated() {
            let entry = index + 1
            guard let object = element as? [String: Any] else {
                throw CheckInReplayError(file: file, line: entry, problem: "entry \(entry) is not an object")
            }
            var row = RowParser.Row()
            for key in object.keys.sorted() {
                let name = key.lowercased()
                let text: String
                if let string = object[key] as? String {
                    text = string
                } else if name == "timestamp", let number = object[key] as? NSNumber, !Self.isBoolean(object[key]!) {
                    text = number.stringValue
                } else {
                    throw CheckInReplayError(file: file, line: entry, problem: "entry \(entry): '\(key.prefix(40))' must be a string\(name == "timestamp" ? " or a whole number" : "")")
                }
                let value = (Substring(text).utf8, 0)
                switch name {
                case "timestamp" where row.timestamp == nil: row.timestamp = value
                case "user" where row.user == nil: row.user = value
                case "event" where row.event == nil: row.event = value
                case "timezone" where row.timezone == nil: row.timezone = value
                default:
                    throw CheckInReplayError(file: file, line: entry, problem: "entry \(entry): unknown or repeated key '\(key.prefix(40))' (keys: timestamp, user, event, timezone)")
                }
            }
            for (required, value) in [("timestamp", row.timestamp), ("user", row.user), ("event", row.event)] where value == nil {
                throw CheckInReplayError(file: file, line: entry, problem: "entry \(entry): missing '\(required)'")
            }
            events.append(try parser.event(row, line: entry))
        }
        return events
    }

    /// Whether a JSON value is `true`/`false` (which would otherwise pass as the number 1 or 0).
    static func isBoolean(_ value: Any) -> Bool {
        if let number = value as? NSNumber { return String(cString: number.objCType) == "c" || type(of: value) == Bool.self }
        return value is Bool
    }

    /// One CSV field: its bytes and 1-based character column.
    struct Field {
        let text: Substring.UTF8View
        let column: Int
    }

    /// Splits on commas (no quoting: a quote is refused when the field is read).
    static func fields(_ line: Substring.UTF8View) -> [Field] {
        var result: [Field] = []
        var start = line.startIndex
        var column = 1, characters = 0
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if byte == 0x2C {
                result.append(Field(text: line[start..<index], column: column))
                start = line.index(after: index)
                column = characters + 2
            }
            if byte & 0xC0 != 0x80 { characters += 1 }
            index = line.index(after: index)
        }
        result.append(Field(text: line[start..<line.endIndex], column: column))
        return result
    }

    static func trimmed(_ field: Substring.UTF8View) -> Substring.UTF8View {
        var lower = field.startIndex, upper = field.endIndex
        while lower < upper, field[lower] == 0x20 || field[lower] == 0x09 { lower = field.index(after: lower) }
        while upper > lower, field[field.index(before: upper)] == 0x20 || field[field.index(before: upper)] == 0x09 { upper = field.index(before: upper) }
        return field[lower..<upper]
    }

    static func isBlank(_ line: Substring.UTF8View) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    /// Turns the fields of one row into an event; caches time-zone look-ups across rows.
    struct RowParser {
        /// The trimmed fields of one row with their columns (0 in JSON).
        struct Row {
            var timestamp: (Substring.UTF8View, Int)?
            var user: (Substring.UTF8View, Int)?
            var event: (Substring.UTF8View, Int)?
            var timezone: (Substring.UTF8View, Int)?
        }

        let file: String
        /// Zones seen so far: the identifier (one String shared by every row naming it), nil if unknown.
        private var zones: [Substring: String?] = [:]

        init(file: String) { self.file = file }

        /// The event of one row. The time, the user, the time zone and the event are checked in
        /// that order: the first problem is the one reported.
        mutating func event(_ row: Row, line: Int) throws(CheckInReplayError) -> CheckInEvent {
            let (rawTime, timeColumn) = row.timestamp!
            let time: Timestamp
            switch CheckInTimestamp.parse(rawTime) {
            case .success(let value): time = value
            case .failure(let problem): throw fail(line, timeColumn, problem.text)
            }
            let user = try self.user(row.user!, line: line)
            var timeZone: String?
            if let (rawZone, zoneColumn) = row.timezone, !rawZone.isEmpty {
                timeZone = try zone(Substring(rawZone), column: zoneColumn, line: line)
            }
            let (rawEventView, eventColumn) = row.event!
            let action = try self.action(Substring(rawEventView), column: eventColumn, line: line)
            return CheckInEvent(time: time, user: user, action: action, timeZone: timeZone, line: line)
        }

        /// The error at `line` and `column` of this file.
        private func fail(_ line: Int, _ column: Int, _ problem: String) -> CheckInReplayError {
            CheckInReplayError(file: file, line: line, column: column, problem: problem)
        }

        /// The user id: not empty, not too long, without a quote or a control character.
        private func user(_ field: (Substring.UTF8View, Int), line: Int) throws(CheckInReplayError) -> String {
            let (rawUser, userColumn) = field
            guard !rawUser.isEmpty else { throw fail(line, userColumn, "empty user") }
            let user = String(Substring(rawUser))
            // Printable ASCII without a quote (nearly every id) needs no Unicode tables.
            let plain = rawUser.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }
            guard (plain ? rawUser.count : user.count) <= CheckInEvent.maxUserLength else {
                throw fail(line, userColumn, "user id longer than \(CheckInEvent.maxUserLength) characters")
            }
            guard plain || !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\"" }) else {
                throw fail(line, userColumn, "user id '\(user.prefix(40))' contains a quote or a control character")
            }
            return user
        }

        /// The action the event field names, with its argument checked.
        private mutating func action(_ rawEvent: Substring, column eventColumn: Int, line: Int) throws(CheckInReplayError) -> Action {
            func argument(_ prefix: String) -> Substring? {
                rawEvent.hasPrefix(prefix) ? rawEvent.dropFirst(prefix.count) : nil
            }
            func email(_ text: Substring) throws(CheckInReplayError) -> String {
                guard CheckInEvent.isEmail(text) else { throw fail(line, eventColumn, "'\(text.prefix(60))' is not an email address (name@domain.tld)") }
                return String(text)
            }
            func minutes(_ text: Substring) throws(CheckInReplayError) -> Int {
                guard let value = Int(text), (1...CheckInEvent.maxOutageMinutes).contains(value) else {
                    throw fail(line, eventColumn, "outage minutes '\(text.prefix(20))' must be a whole number in 1...\(CheckInEvent.maxOutageMinutes)")
                }
                return value
            }
            if rawEvent == "checkin" {
                return .checkIn
            } else if rawEvent == "pause" {
                return .pause
            } else if rawEvent == "resume" {
                return .resume
            } else if let text = argument("set-threshold:") {
                guard let hours = Int(text), SafeNSoundConfiguration().allowedThresholdHours.contains(hours) else {
                    throw fail(line, eventColumn, "bad threshold in '\(rawEvent.prefix(40))': SafeNSound offers 24, 48 or 72 hours")
                }
                return .setThreshold(hours: hours)
            } else if let text = argument("set-timezone:") {
                return .setTimeZone(try zone(text, column: eventColumn, line: line))
            } else if let text = argument("add-contact:") {
                return .addContact(try email(text))
            } else if let text = argument("remove-contact:") {
                return .removeContact(try email(text))
            } else if let text = argument("edit-contact:") {
                guard let arrow = text.range(of: "->") else { throw fail(line, eventColumn, "edit-contact needs <old>-><new>") }
                return .editContact(from: try email(text[..<arrow.lowerBound]), to: try email(text[arrow.upperBound...]))
            } else if let text = argument("email-fails:") {
                return .sendFailure(.email, minutes: try minutes(text))
            } else if let text = argument("push-fails:") {
                return .sendFailure(.push, minutes: try minutes(text))
            }
            throw fail(line, eventColumn, "unknown event '\(rawEvent.prefix(40))': expected \(CheckInEvent.eventSyntax)")
        }

        private mutating func zone(_ text: Substring, column: Int, line: Int) throws(CheckInReplayError) -> String {
            let known: String?
            if let cached = zones[text] {
                known = cached
            } else {
                let identifier = String(text)
                known = CheckInEvent.isIANAZone(identifier) ? identifier : nil
                if zones.count < 4_096 { zones[text] = .some(known) }
            }
            guard let known else {
                let abbreviation = !text.contains("/") && text.count <= 5 && text.allSatisfy(\.isUppercase)
                throw CheckInReplayError(file: file, line: line, column: column, problem: abbreviation
                    ? "time zone '\(text)' is an abbreviation (ambiguous: PST, CST, IST name several zones); give an IANA name such as America/Los_Angeles"
                    : "unknown time zone '\(text.prefix(60))': give an IANA name such as America/Los_Angeles or UTC")
            }
            return known
        }
    }

    /// IANA region names (`Area/Location`, plus `UTC`) that the system's time-zone database has,
    /// aliases included (`Asia/Kolkata` and `Asia/Calcutta` alike); abbreviations (PST, EST) and
    /// POSIX-style names (EST5EDT) are refused: they are ambiguous or not what
    /// `TimeZone.current.identifier` sends.
    static func isIANAZone(_ identifier: String) -> Bool {
        if identifier == "UTC" { return TimeZone(identifier: "UTC") != nil }
        guard identifier.contains("/"), !identifier.hasPrefix("/"), !identifier.hasSuffix("/"), !identifier.contains("//"),
              identifier.utf8.count <= 64,
              identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }),
              !identifier.hasPrefix("posix/"), !identifier.hasPrefix("right/")
        else { return false }
        return TimeZone(identifier: identifier) != nil
    }

    /// `local@domain.tld` without spaces, commas, quotes or angle brackets, at most 254 characters.
    static func isEmail(_ text: Substring) -> Bool {
        guard text.utf8.count <= 254, let at = text.firstIndex(of: "@") else { return false }
        let local = text[..<at], domain = text[text.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty, !domain.contains("@"), domain.contains("."),
              !domain.hasPrefix("."), !domain.hasSuffix(".") else { return false }
        return !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || ",;\"<>()[]\\".unicodeScalars.contains($0) }
    }
}
