/// A query's filter, as Firestore's structured query expresses it: a comparison of one field with
/// a value, a unary test, or an AND/OR of filters. Field paths are dotted (`address.city`);
/// `__name__` is the document's key.
public indirect enum QueryFilter: Sendable, Hashable {
    /// A comparison operator.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "EQUAL", notEqual = "NOT_EQUAL"
        case lessThan = "LESS_THAN", lessThanOrEqual = "LESS_THAN_OR_EQUAL"
        case greaterThan = "GREATER_THAN", greaterThanOrEqual = "GREATER_THAN_OR_EQUAL"
        case arrayContains = "ARRAY_CONTAINS", arrayContainsAny = "ARRAY_CONTAINS_ANY"
        case `in` = "IN", notIn = "NOT_IN"

        /// True for the operators Firestore counts as inequalities (they order the results).
        public var isInequality: Bool {
            switch self {
            case .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notIn: true
            case .equal, .arrayContains, .arrayContainsAny, .in: false
            }
        }
    }

    /// A unary test.
    public enum Unary: String, Sendable, Hashable, CaseIterable {
        case isNull = "IS_NULL", isNaN = "IS_NAN", isNotNull = "IS_NOT_NULL", isNotNaN = "IS_NOT_NAN"
    }

    /// `field op value` (`in`, `not-in` and `array-contains-any` take an array value).
    case field(String, Operator, Value)
    /// A unary test of `field`.
    case unary(String, Unary)
    /// Every filter holds.
    case and([QueryFilter])
    /// Some filter holds.
    case or([QueryFilter])

    /// The fields this filter compares with an inequality, in the order they first appear.
    public var inequalityFields: [String] {
        switch self {
        case .field(let path, let op, _): op.isInequality ? [path] : []
        case .unary(let path, let test): test == .isNotNull || test == .isNotNaN ? [path] : []
        case .and(let filters), .or(let filters):
            filters.flatMap(\.inequalityFields).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        }
    }

    /// Whether any comparison is an inequality (`inequalityFields` is not empty), without building it.
    var hasInequality: Bool {
        switch self {
        case .field(_, let op, _): op.isInequality
        case .unary(_, let test): test == .isNotNull || test == .isNotNaN
        case .and(let filters), .or(let filters): filters.contains { $0.hasInequality }
        }
    }

    /// Whether a document with `fields` (at `path`) satisfies the filter.
    public func matches(_ fields: Fields, path: DocumentPath) -> Bool {
        switch self {
        case .and(let filters): filters.allSatisfy { $0.matches(fields, path: path) }
        case .or(let filters): filters.contains { $0.matches(fields, path: path) }
        case .unary(let field, let test): Self.test(test, QueryField.value(field, in: fields, path: path))
        case .field(let field, let op, let operand): Self.compare(QueryField.value(field, in: fields, path: path), op, operand)
        }
    }

    static func test(_ test: Unary, _ value: Value?) -> Bool {
        guard let value else { return false }
        let isNaN = value.doubleValue.map { $0.isNaN } ?? false
        switch test {
        case .isNull: return value == .null
        case .isNaN: return isNaN
        case .isNotNull: return value != .null
        case .isNotNaN: return !isNaN && value != .null
        }
    }

    /// `value op operand` under Firestore's rules: a missing field matches nothing; a range
    /// comparison matches values of the operand's type only and never NaN; equality never holds
    /// for a null or NaN operand (`== null` is `IS_NULL`, `== NaN` is `IS_NAN`), so `!= NaN`
    /// keeps NaN; `!=` and `not-in` never match null, and a `not-in` list holding null matches nothing.
    static func compare(_ value: Value?, _ op: Operator, _ operand: Value) -> Bool {
        guard let value else { return false }
        switch op {
        case .equal: return matchesEqual(value, operand)
        case .notEqual: return value != .null && !matchesEqual(value, operand)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard ValueOrder.typeRank(value) == ValueOrder.typeRank(operand), !isNaN(value), !isNaN(operand) else { return false }
            let order = ValueOrder.compare(value, operand)
            switch op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .arrayContains:
            return value.arrayValue?.contains { matchesEqual($0, operand) } ?? false
        case .arrayContainsAny:
            let wanted = operand.arrayValue ?? []
            return value.arrayValue?.contains { element in wanted.contains { matchesEqual(element, $0) } } ?? false
        case .in:
            return (operand.arrayValue ?? []).contains { matchesEqual(value, $0) }
        case .notIn:
            let excluded = operand.arrayValue ?? []
            if excluded.contains(.null) { return false }
            return value != .null && !excluded.contains { matchesEqual(value, $0) }
        }
    }

    /// Equality as a filter sees it: Firestore's value equality, except that a null or NaN
    /// operand equals nothing.
    static func matchesEqual(_ value: Value, _ operand: Value) -> Bool {
        if operand == .null || isNaN(operand) { return false }
        return ValueOrder.equal(value, operand)
    }

    static func isNaN(_ value: Value) -> Bool { value.doubleValue?.isNaN ?? false }
}
