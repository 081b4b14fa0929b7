/// A Firestore field value: the small closed set of types the simulated apps store.
///
/// Maps are `Fields` (entries sorted by key, so iteration never depends on hashing). Integers and
/// doubles are distinct, as in Firestore.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case timestamp(Timestamp)
    case array(ValueArray)
    case map(Fields)

    /// An array value holding `elements`.
    public static func array(_ elements: [Value]) -> Value { .array(ValueArray(elements)) }

    /// The string, nil for another type.
    public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    /// The boolean, nil for another type.
    public var boolValue: Bool? { if case .bool(let v) = self { return v }; return nil }
    /// The integer (a whole double counts), nil for another type.
    public var intValue: Int64? {
        switch self {
        case .int(let v): return v
        case .double(let v): return Int64(exactly: v)
        default: return nil
        }
    }
    /// Numeric value as a double (ints widen).
    public var doubleValue: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .double(let v): return v
        default: return nil
        }
    }
    /// The timestamp, nil for another type.
    public var timestampValue: Timestamp? { if case .timestamp(let v) = self { return v }; return nil }
    /// The array, nil for another type.
    public var arrayValue: ValueArray? { if case .array(let v) = self { return v }; return nil }
    /// The map, nil for another type.
    public var mapValue: Fields? { if case .map(let v) = self { return v }; return nil }

    /// The value as JSON-like text, for notes and stories.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let v): return "\(v)"
        case .int(let v): return "\(v)"
        case .double(let v): return "\(v)"
        case .string(let v): return "\"\(v)\""
        case .timestamp(let v): return "\(v)"
        case .array(let v): return v.description
        case .map(let v):
            return v.description
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// `"text"` is a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42` is an integer value.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// `4.2` is a double value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` is a boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[…]` is an array value.
    public init(arrayLiteral elements: Value...) { self = .array(ValueArray(elements)) }
    /// `[key: …]` is a map value.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .map(Fields(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `nil` is the null value.
    public init(nilLiteral: ()) { self = .null }
}

extension Fields {
    /// A canonical one-line rendering with sorted keys (for traces, outbox payloads and tests).
    public var canonicalDescription: String { description }
}
