@testable import SimulatedFirebase
import Testing

/// The simulated Firestore's query engine and value model, pinned to what Google's Firestore
/// emulator answered for the same data (docs/real-firestore.md): each test is a divergence the
/// differential oracle found and the simulation now closes.
@Suite struct FirestoreQueryEngineTests {
    /// q1 n=1, q2 n=2, q3 n=3, q4 n=null, q5 n=NaN, q6 no n, q7 n="str", q8 n=2.0.
    static let documents: [DocumentSnapshot] = ([
        ("q1", Value.int(1)), ("q2", .int(2)), ("q3", .int(3)), ("q4", .null), ("q5", .double(.nan)), ("q6", Value?.none), ("q7", "str"), ("q8", .double(2.0)),
    ] as [(String, Value?)]).map { id, n in
        var fields: Fields = ["k": 1]
        if let n { fields["n"] = n }
        return DocumentSnapshot(path: DocumentPath("q", id), fields: fields, version: 1, updateTime: Timestamp(unixNanoseconds: 0))
    }

    static func ids(_ filter: QueryFilter, orderBy: [Query.Order] = []) -> [String] {
        Query("q", filter: filter, orderBy: orderBy).evaluate(documents).map(\.id)
    }

    @Test(arguments: [
        (QueryFilter.field("n", .equal, 2), ["q2", "q8"]),
        (.field("n", .notEqual, 2), ["q5", "q1", "q3", "q7"]),
        (.field("n", .lessThan, 3), ["q1", "q2", "q8"]),
        (.field("n", .greaterThanOrEqual, 1), ["q1", "q2", "q8", "q3"]),
        (.field("n", .greaterThan, ""), ["q7"]),
        (.field("n", .in, [1, 3, "str"]), ["q1", "q3", "q7"]),
        (.field("n", .notIn, [1, 3]), ["q5", "q2", "q8", "q7"]),
        (.field("n", .notIn, [1, nil]), []),
        (.field("n", .in, [1, nil]), ["q1"]),
        (.field("n", .equal, .double(.nan)), []),
        (.field("n", .notEqual, .double(.nan)), ["q5", "q1", "q2", "q8", "q3", "q7"]),
        (.unary("n", .isNull), ["q4"]),
        (.unary("n", .isNotNull), ["q5", "q1", "q2", "q8", "q3", "q7"]),
        (.unary("n", .isNaN), ["q5"]),
        (.unary("n", .isNotNaN), ["q1", "q2", "q8", "q3", "q7"]),
    ])
    func operatorsAnswerAsTheEmulatorDid(filter: QueryFilter, expected: [String]) {
        #expect(Self.ids(filter) == expected, "\(filter)")
    }

    @Test func numbersCompareByValueAndMixedTypesFollowFirestoresOrder() {
        #expect(ValueOrder.equal(.int(1), .double(1.0)))
        #expect(!ValueOrder.equal(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)), "an int64 is not rounded to a double")
        let ascending: [Value] = [.null, false, true, .double(.nan), .double(-.infinity), -5, 2.5, .timestamp(Timestamp(unixSeconds: 0)), "", "B", "abc", "é", [], [1], [:], ["a": 1]]
        for (earlier, later) in zip(ascending, ascending.dropFirst()) { #expect(ValueOrder.compare(earlier, later) < 0, "\(earlier) < \(later)") }
    }

    @Test func inequalitiesOrderByTheirFieldsThenTheDocumentKey() {
        // Two inequality fields: ordered by k then n (their paths sorted), then __name__.
        let query = Query("q", filter: .and([.field("n", .greaterThan, 0), .field("k", .greaterThan, 0)]))
        #expect(query.effectiveOrder.map(\.field) == ["k", "n", "__name__"])
        #expect(Self.ids(.field("n", .greaterThan, 0), orderBy: [Query.Order("n", descending: true)]) == ["q3", "q8", "q2", "q1"])
    }

    @Test func cursorsAndLimitToLast() {
        let ordered = Query("q", orderBy: [Query.Order("n")], start: Query.Cursor([2], inclusive: true))
        #expect(ordered.evaluate(Self.documents).map(\.id) == ["q2", "q8", "q3", "q7"])
        var last = Query("q", filter: .field("n", .lessThan, 10), orderBy: [Query.Order("n")], limit: 2, limitToLast: true)
        #expect(last.evaluate(Self.documents).map(\.id) == ["q8", "q3"])
        last.end = Query.Cursor([2], inclusive: false)
        #expect(last.evaluate(Self.documents).map(\.id) == ["q1"])
    }

    @Test(arguments: [
        (QueryFilter.and([.unary("a", .isNotNull), .unary("m", .isNotNull)]), "Only a single 'NOT_EQUAL'"),
        (.and([.field("a", .arrayContains, 1), .field("b", .arrayContains, 2)]), "A maximum of 1 'ARRAY_CONTAINS'"),
        (.or([.field("a", .notIn, [1]), .field("b", .equal, 2)]), "'NOT_IN' cannot be used"),
        (.field("a", .in, .array((0..<31).map { .int($0) })), "'IN' supports up to 30"),
        (.field("a", .notIn, .array((0..<11).map { .int($0) })), "'NOT_IN' supports up to 10"),
        (.field("a", .in, []), "requires an non-empty ArrayValue"),
        (.and([.field("a", .in, .array((0..<10).map { .int($0) })), .field("b", .in, [1, 2, 3, 4])]), "Too many disjunctions"),
    ])
    func queriesFirestoreRefusesAreInvalidArguments(filter: QueryFilter, message: String) {
        let problem = Query("q", filter: filter).validationError
        #expect(problem?.contains(message) == true, "\(String(describing: problem))")
    }
}

/// Writes and transforms as a real Firestore applies them (each found by the differential oracle).
@Suite struct FirestoreValueSemanticsTests {
    static let now = Timestamp(unixSeconds: 1)

    @Test func integerIncrementsSaturateInsteadOfWrapping() {
        let fields: Fields = ["n": .int(-1), "m": .int(Int64.max)]
        let updated = fields.applying(["n": .increment(.int(Int64.min)), "m": .increment(1)], commitTime: Self.now)
        #expect(updated["n"] == .int(Int64.min) && updated["m"] == .int(Int64.max))
    }

    @Test func negativeZeroIsStoredAsZero() throws {
        let stored = try WriteOperation.set(["z": .double(-0.0), "list": [.double(-0.0)], "map": ["z": .double(-0.0)]])
            .apply(to: nil, path: DocumentPath("c", "d"), commitTime: Self.now)
        #expect(stored?["z"]?.doubleValue?.sign == .plus)
        #expect(stored?["list"]?.arrayValue?.first?.doubleValue?.sign == .plus)
        #expect(stored?["map"]?.mapValue?["z"]?.doubleValue?.sign == .plus)
    }

    @Test func arrayTransformsCompareNumbersByValue() {
        let fields: Fields = ["tags": [1, "a"]]
        #expect(fields.applying(["tags": .arrayUnion([.double(1.0), 2])], commitTime: Self.now)["tags"] == [1, "a", 2])
        #expect(fields.applying(["tags": .arrayRemove([.double(1.0)])], commitTime: Self.now)["tags"] == ["a"])
    }

    @Test func deletingInsideAMissingMapMakesNoMap() {
        let fields: Fields = ["n": .null]
        #expect(fields.applying(["m.k": .delete], commitTime: Self.now) == ["n": .null])
        #expect(([ "m": ["k": 1]] as Fields).applying(["m.k": .delete], commitTime: Self.now) == ["m": [:]])
    }
}
