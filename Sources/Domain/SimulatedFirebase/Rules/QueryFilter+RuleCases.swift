/// What a query tells the rules about every document it could return (docs/domain.md, "Rules are
/// not filters"): Firestore judges a `list` once, on the query's constraints, never on the
/// documents found, and allows it only when the rule holds for every document the query could
/// return. The filter is read as the cases it allows (its disjunctive form): each case pins fields
/// to values (`==`, `== null`, each value of an `in`), or to an array holding a value
/// (`array-contains`, each value of `array-contains-any`); a rule reading a field no case pins sees
/// it absent, which the rules engine cannot prove, so such a query is denied.
extension QueryFilter {
    /// Disjunctive cases beyond this many are not expanded: the query pins nothing (Firestore
    /// itself refuses more than 30 disjunctions).
    static let ruleCaseLimit = 64

    /// The documents the rules are asked about: one per case of the filter, holding the fields
    /// that case pins (nested paths `a.b` as maps); `[[:]]` when the filter pins nothing.
    public var ruleCases: [Fields] {
        let cases = pinnedCases
        return cases.count > Self.ruleCaseLimit || cases.isEmpty ? [[:]] : cases
    }

    private var pinnedCases: [Fields] {
        switch self {
        case .field(let path, let op, let value):
            guard path != QueryField.documentName else { return [[:]] }
            switch op {
            case .equal: return [Self.pinning(path, value)]
            case .in: return (value.arrayValue.map(Array.init) ?? []).map { Self.pinning(path, $0) }
            case .arrayContains: return [Self.pinning(path, .array([value]))]
            case .arrayContainsAny: return (value.arrayValue.map(Array.init) ?? []).map { Self.pinning(path, .array([$0])) }
            case .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notIn: return [[:]]
            }
        case .unary(let path, .isNull): return [Self.pinning(path, .null)]
        case .unary: return [[:]]
        case .or(let filters): return filters.flatMap(\.pinnedCases)
        case .and(let filters):
            var cases: [Fields] = [[:]]
            for filter in filters {
                let next = filter.pinnedCases
                guard cases.count * next.count <= Self.ruleCaseLimit else { return [[:]] }
                cases = cases.flatMap { left in next.map { Self.merged(left, $0) } }
            }
            return cases
        }
    }

    private static func pinning(_ path: String, _ value: Value) -> Fields {
        var fields: Fields = [:]
        insert(value, at: path.split(separator: ".").map(String.init)[...], into: &fields)
        return fields
    }

    private static func merged(_ left: Fields, _ right: Fields) -> Fields {
        var result = left
        for (key, value) in right {
            if let inner = result[key]?.mapValue, let other = value.mapValue { result[key] = .map(merged(inner, other)) } else { result[key] = value }
        }
        return result
    }

    private static func insert(_ value: Value, at path: ArraySlice<String>, into fields: inout Fields) {
        guard let head = path.first else { return }
        if path.count == 1 {
            fields[head] = value
            return
        }
        var inner = fields[head]?.mapValue ?? [:]
        insert(value, at: path.dropFirst(), into: &inner)
        fields[head] = .map(inner)
    }
}
