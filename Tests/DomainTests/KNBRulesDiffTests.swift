@testable import Domain
@testable import SimulatedFirebase
import Testing

/// KNB's rules ask which keys an update changed; `onlyChanged` and `unchanged` answer without
/// building sets, and must answer as the set definition (`changedKeys`) does.
@Suite struct KNBRulesDiffTests {
    static let keys = ["currentBid", "bids", "isSold", "name", "email", "isAdmin", "café", "cafe\u{301}", "k1", "k2"]
    static let values: [Value] = [.int(1), .int(2), .double(1), .string("a"), .bool(true), .null, .array(ValueArray([.int(1)]))]

    static func randomFields(_ random: inout TestGenerator) -> Fields? {
        if random.next(8) == 0 { return nil }
        var fields = Fields()
        for _ in 0..<random.next(7) { fields[keys[random.next(keys.count)]] = values[random.next(values.count)] }
        return fields
    }

    @Test("onlyChanged and unchanged agree with the changed-keys set, over 20,000 random pairs")
    func agreeWithTheSetDefinition() {
        var random = TestGenerator(state: 41)
        var allowedCount = 0
        for _ in 0..<20_000 {
            let before = Self.randomFields(&random)
            // Often a small edit of `before`, so "only these changed" is true in a fair share.
            var after = random.next(3) == 0 ? Self.randomFields(&random) : before
            if after != nil, random.next(2) == 0 { after![Self.keys[random.next(Self.keys.count)]] = Self.values[random.next(Self.values.count)] }
            let allowed = (0..<random.next(4)).map { _ in Self.keys[random.next(Self.keys.count)] }
            let changed = KNBRules.changedKeys(before, after)
            let expected = changed.isSubset(of: Set(allowed))
            #expect(KNBRules.onlyChanged(before, after, among: allowed) == expected, "\(String(describing: before)) → \(String(describing: after)), allowed \(allowed)")
            #expect(KNBRules.unchanged(before, after, allowed) == changed.isDisjoint(with: Set(allowed)))
            if expected && !changed.isEmpty { allowedCount += 1 }
        }
        #expect(allowedCount > 500, "too few allowed non-empty changes to mean anything: \(allowedCount)")
    }
}
