/// The limits Firestore puts on a query's shape (production's, which the emulator enforces
/// alike; docs/domain.md, "Queries"): a query breaking one is refused with INVALID_ARGUMENT.
extension Query {
    /// Values an `in` or `array-contains-any` may list, and a `not-in`.
    static let maximumInValues = 30, maximumNotInValues = 10
    /// Terms of the filter's disjunctive normal form.
    static let maximumDisjunctions = 30

    /// Why Firestore refuses this query, or nil when it accepts it.
    public var validationError: String? {
        if let limit, limit < 0 { return "limit is negative" }
        guard let filter else { return nil }
        let leaves = Self.leaves(filter)
        let negations = leaves.filter { leaf in
            switch leaf {
            case .field(_, let op, _): op == .notEqual || op == .notIn
            case .unary(_, let test): test == .isNotNull || test == .isNotNaN
            default: false
            }
        }
        if negations.count > 1 { return "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query." }
        if let problem = leaves.lazy.compactMap(Self.operandError).first { return problem }
        let hasNotIn = leaves.contains { if case .field(_, .notIn, _) = $0 { true } else { false } }
        let hasOr = Self.containsOr(filter)
        let hasInOrAny = leaves.contains { if case .field(_, let op, _) = $0 { op == .in || op == .arrayContainsAny } else { false } }
        if hasNotIn && (hasOr || hasInOrAny) { return "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'." }
        let terms = Self.disjunctions(filter)
        if terms.count > Self.maximumDisjunctions {
            return "Too many disjunctions after normalization. Result had \(terms.count) disjunctions which is more than the maximum of \(Self.maximumDisjunctions)"
        }
        if terms.contains(where: { $0.filter { if case .field(_, .arrayContains, _) = $0 { true } else { false } }.count > 1 }) {
            return "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."
        }
        return nil
    }

    static func operandError(_ leaf: QueryFilter) -> String? {
        guard case .field(_, let op, let operand) = leaf else { return nil }
        let limit: Int
        switch op {
        case .in, .arrayContainsAny: limit = maximumInValues
        case .notIn: limit = maximumNotInValues
        default: return nil
        }
        let name = "'\(op.rawValue)'"
        guard let values = operand.arrayValue else { return "\(name) requires an ArrayValue." }
        if values.isEmpty { return "\(name) requires an non-empty ArrayValue." }
        if values.count > limit { return "\(name) supports up to \(limit) comparison values." }
        return nil
    }

    /// The comparisons and unary tests of a filter, in order.
    static func leaves(_ filter: QueryFilter) -> [QueryFilter] {
        switch filter {
        case .and(let filters), .or(let filters): filters.flatMap(leaves)
        case .field, .unary: [filter]
        }
    }

    static func containsOr(_ filter: QueryFilter) -> Bool {
        switch filter {
        case .or(let filters): filters.count > 1 || filters.contains(where: containsOr)
        case .and(let filters): filters.contains(where: containsOr)
        case .field, .unary: false
        }
    }

    /// The filter's disjunctive normal form, `in` and `array-contains-any` expanded to one term
    /// per value (as Firestore counts them): each term the leaves that must all hold.
    static func disjunctions(_ filter: QueryFilter) -> [[QueryFilter]] {
        switch filter {
        case .field(let field, let op, let operand) where op == .in || op == .arrayContainsAny:
            let single: QueryFilter.Operator = op == .in ? .equal : .arrayContains
            return (operand.arrayValue ?? []).map { [.field(field, single, $0)] }
        case .field, .unary:
            return [[filter]]
        case .or(let filters):
            return filters.flatMap(disjunctions)
        case .and(let filters):
            return filters.reduce([[]]) { terms, child in
                let childTerms = disjunctions(child)
                return terms.flatMap { term in childTerms.map { term + $0 } }
            }
        }
    }
}
