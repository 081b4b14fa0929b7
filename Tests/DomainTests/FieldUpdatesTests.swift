import Domain
import SimulatedFirebase
import Testing

/// `FieldUpdates` (changes kept in key order) and `Fields.applying`'s walk over both sorted lists,
/// against a `Swift.Dictionary` model applied by hand: a set stores, a delete removes, an
/// increment of an int adds (a missing field takes the operand).
@Suite struct FieldUpdatesTests {
    /// Few and many keys, a prefix of another, non-ASCII, and "é" precomposed and decomposed
    /// (one key to `String`'s `==`).
    static let keys: [String] = (0..<30).map { "k\($0)" } + ["a", "ab", "abc", "Z", "zz", "café", "日本", "a_long_field_name_beyond_fifteen_bytes"]

    /// What the change does to `old`, computed here, not by `FieldUpdate.applied`.
    static func expected(_ change: FieldUpdate, _ old: Value?) -> Value? {
        switch change {
        case .set(let value): return value
        case .delete: return nil
        case .increment(.int(let operand)): return .int((old?.intValue ?? 0) + operand)
        default:
            Issue.record("unexpected change \(change)")
            return nil
        }
    }

    static func pairs(_ fields: Fields) -> [String] { fields.map { "\($0.key)=\($0.value)" } }
    static func pairs(_ model: [String: Value]) -> [String] { model.keys.sorted().map { "\($0)=\(model[$0]!)" } }

    @Test("applying a random update leaves the fields the dictionary model has, whatever order it was written in")
    func applyingMatchesTheModel() {
        var random = TestGenerator(state: 11)
        for round in 0..<300 {
            var model: [String: Value] = [:]
            for key in Self.keys where random.next(3) == 0 { model[key] = .int(Int64(random.next(9))) }
            let fields = Fields(model)
            // Distinct keys, written in a random order (a shuffled pool), some already stored.
            var pool = Self.keys
            if round % 4 == 0 { pool.append("cafe\u{301}"); pool.removeAll { $0 == "café" } }
            for index in pool.indices.reversed() { pool.swapAt(index, random.next(index + 1)) }
            let count = [1, 3, 4, 12, 20][round % 5]
            var pairs: [(String, FieldUpdate)] = []
            for key in pool.prefix(count) {
                switch random.next(3) {
                case 0: pairs.append((key, .set(.int(Int64(100 + random.next(9))))))
                case 1: pairs.append((key, .delete))
                default: pairs.append((key, .increment(.int(Int64(1 + random.next(5))))))
                }
            }
            let updates = FieldUpdates(uniqueKeysWithValues: pairs)
            #expect(updates.count == pairs.count)
            #expect(updates.keys == pairs.map(\.0).sorted())
            #expect(updates.map(\.key) == updates.keys)
            for (key, change) in pairs { #expect(updates[key] == change, "key \(key)") }
            #expect(FieldUpdates(uniqueKeysWithValues: pairs.reversed()) == updates)

            var after = model
            for (key, change) in pairs {
                let old = after[key]
                after[key] = Self.expected(change, old)
            }
            let applied = fields.applying(updates, commitTime: Timestamp(unixNanoseconds: 0))
            #expect(Self.pairs(applied) == Self.pairs(after), "round \(round)")
        }
    }

    @Test("a canonically equivalent key updates the stored field and keeps its spelling")
    func equivalentKeyKeepsTheStoredSpelling() {
        let fields: Fields = ["café": 1, "z": 2]
        let applied = fields.applying(["cafe\u{301}": .set(5)], commitTime: Timestamp(unixNanoseconds: 0))
        #expect(applied.count == 2)
        #expect(applied.keys.first?.unicodeScalars.count == 4)  // the precomposed spelling stayed
        #expect(applied["café"] == .int(5))
    }

    @Test("subscript sets, replaces and removes in key order")
    func subscriptKeepsOrder() {
        var updates: FieldUpdates = ["m": .delete, "b": .set(1)]
        updates["a"] = .serverTimestamp
        updates["z"] = .set(2)
        updates["m"] = nil
        updates["b"] = .set(3)
        #expect(updates.keys == ["a", "b", "z"])
        #expect(updates["b"] == .set(3))
        #expect(updates["m"] == nil)
        #expect(FieldUpdates(["z": .set(2), "a": .serverTimestamp, "b": .set(3)]) == updates)
        #expect(!updates.isEmpty && FieldUpdates().isEmpty)
    }

    @Test("dotted paths still reach into maps, applied in key order with top-level keys")
    func dottedPathsStillWork() {
        let fields: Fields = ["tokens": .map(["t1": true, "t2": true]), "name": "x"]
        let applied = fields.applying(["tokens.t1": .delete, "name": .set("y"), "tokens.t3": .set(true)], commitTime: Timestamp(unixNanoseconds: 0))
        #expect(applied["name"] == "y")
        #expect(applied["tokens"]?.mapValue?.keys.map { $0 } == ["t2", "t3"])
    }
}
