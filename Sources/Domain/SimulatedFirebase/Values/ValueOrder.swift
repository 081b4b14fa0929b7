/// Firestore's total order of values and its equality, as queries, `orderBy`, cursors, `in` and
/// array transforms use them (docs/domain.md, "Values"): null < booleans < numbers (NaN first,
/// then integers and doubles by numeric value, so 1 equals 1.0 and -0.0 equals 0.0) < timestamps <
/// strings (by UTF-8 bytes) < arrays (element by element, then length) < maps (entry by entry in
/// key order: key, then value; then size).
public enum ValueOrder {
    /// The position of a value's type in Firestore's order (numbers share one).
    public static func typeRank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .int, .double: 2
        case .timestamp: 3
        case .string: 4
        case .array: 8
        case .map: 9
        }
    }

    /// -1, 0 or 1 as `a` orders before, with or after `b`.
    public static func compare(_ a: Value, _ b: Value) -> Int {
        let (rankA, rankB) = (typeRank(a), typeRank(b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case (.null, .null): return 0
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.timestamp(let x), .timestamp(let y)): return sign(x.unixNanoseconds, y.unixNanoseconds)
        case (.string(let x), .string(let y)): return compareUTF8(x, y)
        case (.array(let x), .array(let y)):
            for (left, right) in zip(x, y) {
                let order = compare(left, right)
                if order != 0 { return order }
            }
            return sign(x.count, y.count)
        case (.map(let x), .map(let y)):
            for (left, right) in zip(x, y) {
                let keyOrder = compareUTF8(left.key, right.key)
                if keyOrder != 0 { return keyOrder }
                let order = compare(left.value, right.value)
                if order != 0 { return order }
            }
            return sign(x.count, y.count)
        default:
            return compareNumbers(a, b)
        }
    }

    /// Whether `a` and `b` are the same Firestore value (numbers by value; NaN equals NaN, as
    /// `arrayUnion` and `in` treat it).
    public static func equal(_ a: Value, _ b: Value) -> Bool { compare(a, b) == 0 }

    /// Numbers by value: NaN first; an integer against a double exactly (no rounding of the
    /// integer to a double, which would make 2^53 + 1 equal 2^53).
    static func compareNumbers(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.double(let x), .double(let y)): return compareDoubles(x, y)
        case (.int(let x), .double(let y)): return -compareDouble(y, toInteger: x)
        case (.double(let x), .int(let y)): return compareDouble(x, toInteger: y)
        default: preconditionFailure("not numbers: \(a), \(b)")
        }
    }

    static func compareDoubles(_ x: Double, _ y: Double) -> Int {
        if x.isNaN { return y.isNaN ? 0 : -1 }
        if y.isNaN { return 1 }
        return x < y ? -1 : (x > y ? 1 : 0)
    }

    /// -1, 0, 1 as the double `x` is below, equal to or above the integer `y`.
    static func compareDouble(_ x: Double, toInteger y: Int64) -> Int {
        if x.isNaN { return -1 }
        if x < -9.223372036854775808e18 { return -1 }
        if x >= 9.223372036854775808e18 { return 1 }
        let truncated = Int64(x.rounded(.towardZero))
        if truncated != y { return truncated < y ? -1 : 1 }
        let fraction = x - x.rounded(.towardZero)
        return fraction > 0 ? 1 : (fraction < 0 ? -1 : 0)
    }

    static func compareUTF8(_ a: String, _ b: String) -> Int {
        var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    static func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
}
