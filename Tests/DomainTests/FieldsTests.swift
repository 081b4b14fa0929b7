import Domain
import SimulatedFirebase
import Testing

/// `Fields` (entries sorted by key) against `Swift.Dictionary` as the model: the same contents
/// after every operation, iteration in key order, equality and hashing independent of the order
/// the fields were written in.
@Suite struct FieldsTests {
    /// Keys that exercise the scan (few), bisection (many), long heap strings, a prefix of another
    /// key, non-ASCII and a canonically equivalent pair ("é" precomposed and decomposed).
    static let keys: [String] = (0..<40).map { "k\($0)" } + [
        "", "a", "ab", "abc", "a_very_long_field_name_beyond_fifteen_bytes", "a_very_long_field_name_beyond_fifteen_bytez",
        "Z", "zz", "café", "cafe\u{301}", "日本", "emoji🙂",
    ]

    static func sortedPairs(_ dictionary: [String: Value]) -> [String] {
        dictionary.keys.sorted().map { "\($0)=\(dictionary[$0]!)" }
    }

    static func pairs(_ fields: Fields) -> [String] { fields.map { "\($0.key)=\($0.value)" } }

    @Test("every operation leaves the same contents as a dictionary, iterated in key order")
    func matchesDictionary() {
        var random = TestGenerator(state: 7)
        for round in 0..<200 {
            var model: [String: Value] = [:]
            var fields = Fields()
            let limit = [4, 12, 13, 30, 52][round % 5]
            let pool = round % 3 == 2 ? Array(Self.keys.suffix(limit)) : Array(Self.keys.prefix(limit))
            for _ in 0..<(limit * 3) {
                let key = pool[random.next(pool.count)]
                let value = Value.int(Int64(random.next(5)))
                switch random.next(6) {
                case 0:
                    #expect(fields.updateValue(value, forKey: key) == model.updateValue(value, forKey: key))
                case 1:
                    #expect(fields.removeValue(forKey: key) == model.removeValue(forKey: key))
                case 2:
                    fields[key] = nil
                    model[key] = nil
                case 3:
                    fields[key, default: .int(0)] = .int((fields[key]?.intValue ?? 0) + 1)
                    model[key, default: .int(0)] = .int((model[key]?.intValue ?? 0) + 1)
                default:
                    fields[key] = value
                    model[key] = value
                }
                #expect(fields.count == model.count)
                #expect(fields[key] == model[key])
            }
            #expect(Self.pairs(fields) == Self.sortedPairs(model))
            #expect(Array(fields.keys) == model.keys.sorted())
            for key in Self.keys {
                #expect(fields[key] == model[key], "key \(key)")
                #expect(fields.keys.contains(key) == (model[key] != nil), "key \(key)")
            }
            #expect(Fields(model) == fields)
            #expect(fields.dictionary == model)
        }
    }

    @Test("equal fields are equal and hash alike whatever order they were written in")
    func orderIndependentEquality() {
        let names = (0..<20).map { "field\($0)" }
        var forward = Fields(), backward = Fields()
        for (index, name) in names.enumerated() { forward[name] = .int(Int64(index)) }
        for (index, name) in names.enumerated().reversed() { backward[name] = .int(Int64(index)) }
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        backward["field3"] = .int(-1)
        #expect(forward != backward)
        #expect(Value.map(forward) != Value.map(backward))
    }

    @Test("a missing key reads as nil, not as the null value; removing one returns nil")
    func missingIsNotNull() {
        var fields: Fields = ["a": 1, "n": .null]
        #expect(fields["b"] == Optional<Value>.none)
        #expect(fields["n"] == Optional<Value>.some(.null))
        #expect(fields.removeValue(forKey: "b") == Optional<Value>.none)
        #expect(fields.removeValue(forKey: "n") == Optional<Value>.some(.null))
        fields["a"] = nil
        #expect(fields.isEmpty)
    }

    @Test("canonically equivalent keys are one key, as in a dictionary")
    func canonicalEquivalence() {
        var fields: Fields = ["café": 1]
        fields["cafe\u{301}"] = 2
        #expect(fields.count == 1)
        #expect(fields["café"] == .int(2))
        // A `Value` map literal keeps a repeated key's last value (as it always did); a `Fields`
        // literal with one traps, as a `Dictionary` literal does.
        let literal: Value = ["a": 1, "b": 2, "a": 3]
        #expect(literal == .map(["a": 3, "b": 2]))
        #expect(literal.description == "{a:3,b:2}")
    }

    @Test("filter, mapValues, merge and merging keep the dictionary's meaning")
    func derivedOperations() {
        let fields: Fields = ["a": 1, "b": 2, "c": 3, "d": 4]
        #expect(fields.filter { $0.value.intValue! % 2 == 0 } == ["b": 2, "d": 4])
        #expect(fields.mapValues { .int($0.intValue! * 10) } == ["a": 10, "b": 20, "c": 30, "d": 40])
        #expect(fields.compactMapValues { value -> Value? in if value.intValue! > 2 { return value }; return nil } == ["c": 3, "d": 4])
        #expect(fields.merging(["b": 9, "e": 5]) { old, _ in old } == ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5])
        #expect(fields.merging(["b": 9, "e": 5]) { _, new in new } == ["a": 1, "b": 9, "c": 3, "d": 4, "e": 5])
    }
}
