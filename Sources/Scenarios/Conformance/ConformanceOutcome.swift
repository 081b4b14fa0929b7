import SimulatedFirebase

/// What one step answered, normalised so the two backends can be compared: the status code and
/// the documents read or returned (in order), each rendered with its value types. Server times
/// differ between the two clocks, so any timestamp after 2020 reads `<server time>`.
public struct ConformanceOutcome: Sendable, Hashable, CustomStringConvertible {
    /// `OK`, or the error's status code (`ALREADY_EXISTS`, `INVALID_ARGUMENT`, …).
    public var code: String
    /// The documents read or returned, rendered (`c/x1 {a: i:1}`; `c/x2 missing`).
    public var documents: [String]

    /// An outcome with `code` and `documents`.
    public init(code: String, documents: [String] = []) {
        self.code = code
        self.documents = documents
    }

    /// `OK [c/x1 {a: i:1}, …]`.
    public var description: String { documents.isEmpty ? code : "\(code) [\(documents.joined(separator: ", "))]" }

    /// One document, rendered.
    static func render(_ path: DocumentPath, _ fields: Fields?) -> String {
        guard let fields else { return "\(path) missing" }
        return "\(path) \(render(fields))"
    }

    static func render(_ fields: Fields) -> String {
        "{" + fields.map { "\($0.key): \(render($0.value))" }.joined(separator: ", ") + "}"
    }

    /// A value with its type: `i:1`, `d:1.0`, `s:"a"`, `t:<ns>` …
    static func render(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "b:\(flag)"
        case .int(let integer): "i:\(integer)"
        case .double(let number): number.isNaN ? "d:NaN" : "d:\(number)"
        case .string(let text): "s:\"\(text)\""
        case .timestamp(let instant): instant.unixNanoseconds >= serverTimeFloor ? "<server time>" : "t:\(instant.unixNanoseconds)"
        case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
        case .map(let fields): render(fields)
        }
    }

    /// 2020-01-01T00:00Z: the generator's own instants are earlier, every server time later.
    static let serverTimeFloor: Int64 = 1_577_836_800_000_000_000
}
