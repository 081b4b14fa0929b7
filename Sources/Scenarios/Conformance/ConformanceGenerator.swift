import SimulatedFirebase

/// Programs drawn from a seed: a few documents in two collections and a sub-collection, written
/// with every SDK write form and transform (integers and doubles mixed, nested maps, NaN, -0.0,
/// int64 bounds), read back, queried with every operator, order, cursor and limit, and changed in
/// transactions. Small on purpose: a mismatch shrinks to a few steps a reader can follow.
public enum ConformanceGenerator {
    /// The collections programs use (`c/x1/sub` is a sub-collection, met again by group queries).
    static let collections = ["c", "d", "c/x1/sub"]
    static let ids = ["x1", "x2", "x3", "x4"]
    static let fields = ["a", "b", "n", "tags", "m"]
    /// Two fixed instants well before any server time (2001-09-09 and 2004-01-10, microseconds).
    static let instants = [Timestamp(unixNanoseconds: 1_000_000_000_000_000), Timestamp(unixNanoseconds: 1_073_741_824_123_456_000)]

    /// The program of `seed`.
    public static func program(seed: UInt64) -> ConformanceProgram {
        var random = ConformanceRandom(seed: seed)
        var steps: [ConformanceStep] = [.commit((0..<(2 + random.below(4))).map { _ in ConformanceWrite(path(&random), .set(document(&random))) })]
        for _ in 0..<(2 + random.below(6)) { steps.append(step(&random)) }
        return ConformanceProgram(seed: seed, steps: steps)
    }

    static func step(_ random: inout ConformanceRandom) -> ConformanceStep {
        switch random.below(11) {
        case 0, 1, 2: return .commit((0..<(1 + random.below(2))).map { _ in write(&random) })
        case 3: return .get(path(&random))
        case 4, 5, 6, 7: return .query(query(&random))
        case 8:
            let reads = (0..<(1 + random.below(3))).map { _ in path(&random) }
            return .readOnlyTransaction(reads: reads, commitsBack: random.below(3) == 0 ? nil : random.below(3))
        default: return .transaction(reads: (0..<(1 + random.below(2))).map { _ in path(&random) }, writes: [write(&random)])
        }
    }

    static func path(_ random: inout ConformanceRandom) -> DocumentPath {
        DocumentPath(random.pick(collections), random.pick(ids))
    }

    /// Ids at Firestore's limits: refused (`.`, `..`, reserved, 1,501 bytes) and just allowed.
    static let limitIds = [".", "..", "...", "__x__", "__x_", String(repeating: "i", count: 1_500), String(repeating: "i", count: 1_501)]
    /// Ids a read may not name (the final state is read for the others).
    static let refusedIds: Set<String> = [".", "..", "__x__", String(repeating: "i", count: 1_501)]
    /// Field names at Firestore's limits: refused (reserved, empty, 1,501 bytes) and just allowed.
    static let limitFieldNames = ["__x__", "", "__x_", String(repeating: "f", count: 1_500), String(repeating: "f", count: 1_501)]

    static func write(_ random: inout ConformanceRandom) -> ConformanceWrite {
        var target = path(&random)
        if random.chance(4) { target = DocumentPath(target.collection, random.pick(limitIds)) }
        switch random.below(6) {
        case 0: return ConformanceWrite(target, .create(document(&random)))
        case 1: return ConformanceWrite(target, .set(document(&random)))
        case 2: return ConformanceWrite(target, .merge(updates(&random)))
        case 3, 4: return ConformanceWrite(target, .update(updates(&random)))
        default: return ConformanceWrite(target, .delete)
        }
    }

    static func document(_ random: inout ConformanceRandom) -> Fields {
        var document = Fields()
        for field in chosenFields(&random) { document[field] = value(for: field, &random) }
        if random.chance(3) { document[random.pick(limitFieldNames)] = scalar(&random) }
        if random.chance(3) { document["m"] = nested(depth: random.pick([19, 20, 21]), arrays: random.chance(50)) }
        return document
    }

    /// A value `depth` maps (or maps and arrays, alternating) deep around a string.
    static func nested(depth: Int, arrays: Bool) -> Value {
        var value: Value = "leaf"
        for level in 0..<depth { value = arrays && level % 2 == 1 ? .array([value]) : .map(["k": value]) }
        return value
    }

    static func chosenFields(_ random: inout ConformanceRandom) -> [String] {
        fields.filter { _ in random.chance(60) }
    }

    static func updates(_ random: inout ConformanceRandom) -> FieldUpdates {
        var pairs: [(String, FieldUpdate)] = []
        for field in fields + ["m.k"] where random.chance(35) {
            if field == "m" && pairs.contains(where: { $0.0 == "m.k" }) { continue }
            if field == "m.k" && pairs.contains(where: { $0.0 == "m" }) { continue }
            pairs.append((field, update(for: field, &random)))
        }
        if pairs.isEmpty { pairs.append(("n", update(for: "n", &random))) }
        return FieldUpdates(uniqueKeysWithValues: pairs)
    }

    static func update(for field: String, _ random: inout ConformanceRandom) -> FieldUpdate {
        switch random.below(9) {
        case 0: return .increment(random.pick(numbers))
        case 1: return .arrayUnion((0..<(1 + random.below(2))).map { _ in scalar(&random) })
        case 2: return .arrayRemove((0..<(1 + random.below(2))).map { _ in scalar(&random) })
        case 3: return .serverTimestamp
        case 4: return .delete
        default: return .set(value(for: field, &random))
        }
    }

    /// Numbers that tell integers from doubles, -0.0 from 0.0 and meet the int64 bounds.
    static let numbers: [Value] = [.int(1), .double(1.0), .int(2), .double(2.5), .int(-1), .double(-0.0), .int(0), .double(.nan),
                                   .int(Int64.max), .int(Int64.min), .double(1e300), .int(9_007_199_254_740_993)]

    static func scalar(_ random: inout ConformanceRandom) -> Value {
        switch random.below(8) {
        case 0, 1, 2: return random.pick(numbers)
        case 3: return random.pick(["", "a", "b", "é", "B"] as [Value])
        case 4: return .bool(random.chance(50))
        case 5: return .null
        case 6: return .timestamp(random.pick(instants))
        default: return random.pick([.int(1), .double(1.0)])
        }
    }

    static func value(for field: String, _ random: inout ConformanceRandom) -> Value {
        switch field {
        case "tags": return .array((0..<random.below(4)).map { _ in random.chance(4) ? [scalar(&random)] : scalar(&random) })
        case "m": return random.chance(80) ? .map(map(&random)) : scalar(&random)
        default: return random.chance(85) ? scalar(&random) : .array((0..<random.below(3)).map { _ in scalar(&random) })
        }
    }

    static func map(_ random: inout ConformanceRandom) -> Fields {
        var fields = Fields()
        for key in ["k", "j"] where random.chance(60) { fields[key] = scalar(&random) }
        if random.chance(20) { fields["deep"] = .map(["z": scalar(&random)]) }
        return fields
    }

    static func query(_ random: inout ConformanceRandom) -> Query {
        let group = random.chance(10)
        var query = Query(group ? "sub" : random.pick(collections), allDescendants: group)
        if random.chance(80) { query.filter = filter(&random, depth: 0) }
        if random.chance(40) {
            query.orderBy = (0..<(1 + random.below(2))).map { _ in Query.Order(random.pick(["a", "b", "n", "m.k"]), descending: random.chance(40)) }
            query.orderBy = query.orderBy.reduce(into: [Query.Order]()) { kept, order in
                if !kept.contains(where: { $0.field == order.field }) { kept.append(order) }
            }
            if random.chance(30) { query.start = Query.Cursor([scalar(&random)], inclusive: random.chance(50)) }
            if random.chance(20) { query.end = Query.Cursor([scalar(&random)], inclusive: random.chance(50)) }
            if random.chance(25) { query.limit = random.below(4); query.limitToLast = random.chance(50) }
        } else if random.chance(20) {
            query.limit = random.below(4)
        }
        return query
    }

    static func filter(_ random: inout ConformanceRandom, depth: Int) -> QueryFilter {
        if depth == 0 && random.chance(15) {
            let children = [filter(&random, depth: 1), filter(&random, depth: 1)]
            return random.chance(50) ? .and(children) : .or(children)
        }
        let field = random.pick(["a", "b", "n", "tags", "m", "m.k"])
        if random.chance(12) { return .unary(field, random.pick(QueryFilter.Unary.allCases)) }
        let op = random.pick(QueryFilter.Operator.allCases)
        switch op {
        case .in, .notIn, .arrayContainsAny:
            // The SDKs send a null inside a list as is (only `== null` becomes IS_NULL).
            return .field(field, op, .array((0..<(1 + random.below(3))).map { _ in random.chance(8) ? .null : nonNullScalar(&random) }))
        default:
            return .field(field, op, nonNullScalar(&random))
        }
    }

    /// A scalar other than null (the SDKs turn `== null` into `IS_NULL`).
    static func nonNullScalar(_ random: inout ConformanceRandom) -> Value {
        while true {
            let value = scalar(&random)
            if value != .null { return value }
        }
    }
}
