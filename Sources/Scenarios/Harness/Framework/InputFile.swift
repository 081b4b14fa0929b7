import Foundation
import Sim

/// Reads the files users hand to the CLI (reports, failure artifacts, shard results, event logs)
/// and decodes them, so every problem is one line naming the file and what is wrong: missing,
/// a directory or a FIFO (never opened, so never a hang), too large, not JSON, or which field is
/// missing or of the wrong type, instead of the decoder's raw text.
package enum InputFile {
    /// The bytes of the regular file at `path` (at most `limit` bytes: `ScenarioLimits.maxInputBytes`
    /// for event logs, `ScenarioLimits.maxArtifactBytes` for reports, artifacts and sweep results).
    package static func read(_ path: String, limit: Int = ScenarioLimits.maxInputBytes) throws(ScenarioError) -> Data {
        guard !path.isEmpty else { throw .unreadableArtifact(path: "''", reason: "the path is empty") }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .unreadableArtifact(path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw .unreadableArtifact(path: path, reason: "it is \(AtomicFile.describe(kind)), not a regular file")
        }
        guard status.st_size <= limit else {
            let name = limit == ScenarioLimits.maxArtifactBytes ? "maxArtifactBytes" : "maxInputBytes"
            throw .unreadableArtifact(path: path, reason: "it has \(status.st_size) bytes; the limit is \(limit) (ScenarioLimits.\(name))")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableArtifact(path: path, reason: access(path, R_OK) != 0 ? String(cString: strerror(errno)) : "cannot open it")
        }
        defer { try? handle.close() }
        do { return try handle.readToEnd() ?? Data() } catch {
            throw .unreadableArtifact(path: path, reason: "read failed")
        }
    }

    /// Decodes `data` (the contents of `path`) as `type`, naming the field on failure.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String, what: String) throws(ScenarioError) -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.isEmpty && (try? JSONSerialization.jsonObject(with: data)) != nil {
            // Foundation reports a number its field cannot hold (-4 for a UInt64) as invalid JSON
            // without a path; the JSON itself is fine.
            throw .unreadableArtifact(path: path, reason: "not \(what): a number is out of range for its field (negative, fractional or too large)")
        } catch let error as DecodingError {
            throw .unreadableArtifact(path: path, reason: "not \(what): \(describe(error))")
        } catch {
            throw .unreadableArtifact(path: path, reason: "not \(what): \(oneLine("\(error)"))")
        }
    }

    /// Refuses JSON whose top-level `schemaVersion` is missing or not `expected` before decoding,
    /// so an artifact of another version says so rather than naming a field that moved.
    package static func requireSchemaVersion(_ data: Data, path: String, expected: Int, what: String) throws(ScenarioError) {
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw .unreadableArtifact(path: path, reason: "not \(what): not valid JSON (truncated or corrupted?)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .unreadableArtifact(path: path, reason: "not \(what): the JSON is not an object")
        }
        guard let version = dictionary["schemaVersion"] else {
            throw .unreadableArtifact(path: path, reason: "not \(what): field 'schemaVersion' is missing")
        }
        guard let number = version as? Int, number == expected else {
            throw .unreadableArtifact(path: path, reason: "schemaVersion \(oneLine("\(version)")) is not \(expected), the version this build reads")
        }
    }

    /// One line for a decoding error: the field path and what is wrong with it.
    static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = path + (last.map { [$0] } ?? [])
            guard !keys.isEmpty else { return "the top level" }
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return "field '\(text)'"
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(field(context.codingPath, key)) is missing"
        case .valueNotFound(_, let context): return "\(field(context.codingPath)) is null"
        case .typeMismatch(let type, let context): return "\(field(context.codingPath)) is not \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON (truncated or corrupted?)" }
            return "\(field(context.codingPath)) is invalid (\(oneLine(context.debugDescription)))"
        @unknown default: return oneLine("\(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch "\(type)" {
        case "Int", "Int32", "Int64", "UInt64", "UInt32", "UInt8": "an integer"
        case "String": "a string"
        case "Bool": "true or false"
        case "Double", "Float": "a number"
        case let name where name.hasPrefix("Array"): "a list"
        case let name where name.hasPrefix("Dictionary"): "an object"
        default: "of the expected type"
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.split(whereSeparator: \.isNewline).joined(separator: " ").prefix(200))
    }
}
