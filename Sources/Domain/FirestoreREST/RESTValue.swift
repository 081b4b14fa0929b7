import Foundation
import SimulatedFirebase

/// Firestore's v1 REST encoding of a field value (`{"integerValue": "1"}`, `{"mapValue": {...}}`),
/// to and from the simulated Firebase's `Value`. Integers travel as strings (int64 in proto3 JSON),
/// doubles as numbers or "NaN"/"Infinity"/"-Infinity", timestamps as RFC 3339 with nanoseconds.
public enum RESTValue {
    /// The JSON object of `value`.
    public static func encode(_ value: Value) -> [String: Any] {
        switch value {
        case .null: ["nullValue": NSNull()]
        case .bool(let flag): ["booleanValue": flag]
        case .int(let integer): ["integerValue": String(integer)]
        case .double(let number): ["doubleValue": encode(double: number)]
        case .string(let text): ["stringValue": text]
        case .timestamp(let instant): ["timestampValue": RFC3339.format(instant)]
        case .array(let elements): ["arrayValue": ["values": elements.map { encode($0) }]]
        case .map(let fields): ["mapValue": ["fields": encode(fields)]]
        }
    }

    /// The JSON object of a document's (or a map's) fields.
    public static func encode(_ fields: Fields) -> [String: Any] {
        var object: [String: Any] = [:]
        for (key, value) in fields { object[key] = encode(value) }
        return object
    }

    /// A double as proto3 JSON writes it: a number, or a string for the values JSON has no number for.
    static func encode(double number: Double) -> Any {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        return number
    }

    /// The value a JSON object encodes; `RESTError.unsupportedValue` for a type the simulated
    /// Firebase does not model (bytes, references, geo points).
    public static func decode(_ object: Any) throws(RESTError) -> Value {
        guard let object = object as? [String: Any], let (kind, payload) = object.first, object.count == 1 else {
            throw .malformedResponse("a value is an object with one key, got \(object)")
        }
        switch kind {
        case "nullValue": return .null
        case "booleanValue": return .bool(try cast(payload, Bool.self, kind))
        case "integerValue": return .int(try integer(payload))
        case "doubleValue": return .double(try double(payload))
        case "stringValue": return .string(try cast(payload, String.self, kind))
        case "timestampValue": return .timestamp(try RFC3339.parse(try cast(payload, String.self, kind)))
        case "arrayValue":
            let values = (payload as? [String: Any])?["values"] as? [Any] ?? []
            var elements: [Value] = []
            for element in values { elements.append(try decode(element)) }
            return .array(elements)
        case "mapValue":
            return .map(try decode(fields: (payload as? [String: Any])?["fields"] as? [String: Any] ?? [:]))
        default:
            throw .unsupportedValue(kind)
        }
    }

    /// A document's (or a map's) fields from their JSON object.
    public static func decode(fields object: [String: Any]) throws(RESTError) -> Fields {
        var fields = Fields()
        for key in object.keys.sorted() { fields[key] = try decode(object[key]!) }
        return fields
    }

    private static func cast<T>(_ payload: Any, _ type: T.Type, _ kind: String) throws(RESTError) -> T {
        guard let typed = payload as? T else { throw .malformedResponse("\(kind) is not a \(T.self): \(payload)") }
        return typed
    }

    private static func integer(_ payload: Any) throws(RESTError) -> Int64 {
        if let text = payload as? String, let integer = Int64(text) { return integer }
        if let number = payload as? NSNumber { return number.int64Value }
        throw .malformedResponse("integerValue is not an int64: \(payload)")
    }

    private static func double(_ payload: Any) throws(RESTError) -> Double {
        if let number = payload as? NSNumber { return number.doubleValue }
        switch payload as? String {
        case "NaN"?: return .nan
        case "Infinity"?: return .infinity
        case "-Infinity"?: return -.infinity
        case let text?: if let number = Double(text) { return number }
        case nil: break
        }
        throw .malformedResponse("doubleValue is not a number: \(payload)")
    }
}
