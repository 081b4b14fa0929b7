import Domain
import SimulatedFirebase
import Testing

/// `EncodedFields` (how a parked document's fields are kept) gives back fields equal in every
/// respect: same keys and order, doubles bit for bit (NaN payloads, -0.0), strings byte for byte
/// (non-ASCII, decomposed accents, empty, long), nested maps and arrays, every integer width.
@Suite struct EncodedFieldsTests {
    /// Every observable of `fields`: its description, its keys in order, and each double's bits.
    static func observed(_ fields: Fields) -> [String] {
        func walk(_ value: Value, into out: inout [String]) {
            switch value {
            case .double(let number): out.append("d\(number.bitPattern)")
            case .string(let text): out.append("s" + text.utf8.map(String.init).joined(separator: "."))
            case .array(let elements): out.append("a\(elements.count)"); for element in elements { walk(element, into: &out) }
            case .map(let map):
                out.append("m\(map.count)")
                for (key, inner) in map {
                    out.append("k" + key.utf8.map(String.init).joined(separator: "."))  // bytes: é and e\u{301} differ
                    walk(inner, into: &out)
                }
            default: out.append("\(value)")
            }
        }
        var out = [fields.description]
        walk(.map(fields), into: &out)
        return out
    }

    static func randomValue(_ random: inout TestGenerator, depth: Int) -> Value {
        let strings = ["", "a", "OUTBID", "You've been outbid on honor 7", "é", "e\u{301}", "ß✓🎉", String(repeating: "x", count: 300)]
        let doubles: [Double] = [0, -0.0, 1.5, -2.25e300, .infinity, -.infinity, .nan, Double(bitPattern: 0x7FF8_0000_0000_0123), .leastNonzeroMagnitude]
        let ints: [Int64] = [0, 1, -1, 63, -64, 64, 127, 128, -129, 1 << 40, .max, .min]
        switch random.next(depth > 2 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(random.next(2) == 0)
        case 2: return .int(ints[random.next(ints.count)])
        case 3: return .double(doubles[random.next(doubles.count)])
        case 4: return .string(strings[random.next(strings.count)])
        case 5: return .timestamp(Timestamp(unixNanoseconds: [0, -1, 1_700_000_000_123_456_789, .min, .max][random.next(5)]))
        case 6: return .array(ValueArray((0..<random.next(5)).map { _ in randomValue(&random, depth: depth + 1) }))
        default: return .map(randomFields(&random, depth: depth + 1))
        }
    }

    static func randomFields(_ random: inout TestGenerator, depth: Int) -> Fields {
        let keys = ["type", "title", "body", "isRead", "createdAt", "data", "key", "é", "e\u{301}x", "", "bids", "k\(random.next(40))"]
        var fields = Fields()
        // Up to 30 keys: maps past Fields' scan limit are bisected, so order matters to lookups.
        for _ in 0..<random.next(depth == 0 ? 30 : 6) {
            fields[keys[random.next(keys.count)] + (random.next(3) == 0 ? "\(random.next(20))" : "")] = randomValue(&random, depth: depth)
        }
        return fields
    }

    @Test("random documents round-trip: equal, same hash, same keys in order, same bits")
    func roundTrips() {
        var random = TestGenerator(state: 27)
        var largest = 0
        for _ in 0..<2_000 {
            let fields = Self.randomFields(&random, depth: 0)
            let packed = EncodedFields(fields)
            let back = packed.decoded()
            #expect(Self.observed(back) == Self.observed(fields))
            #expect(back.hashValue == fields.hashValue)
            // Value's ==: a NaN is unequal to itself (Fields' own buffer compares equal to itself
            // without looking, as Array's does; a decoded copy is a new buffer).
            #expect(back == fields || fields.description.contains("nan"))
            for key in fields.keys { #expect(back[key] != nil, "lookup of \(key) after decoding") }
            largest = max(largest, fields.count)
        }
        #expect(largest > 12, "no map was large enough to be bisected")
    }

    @Test("an OUTBID notification packs into a fraction of its decoded size")
    func notificationIsSmall() {
        let fields: Fields = [
            "type": "OUTBID", "title": "You've been outbid", "body": "Someone bid $125 on Hagbah (Shabbat morning)",
            "isRead": false, "createdAt": .timestamp(Timestamp(unixNanoseconds: 1_700_000_000_000_000_000)),
            "data": .map(["honorId": "h12", "bidId": "bid-0000000123-u17"]), "key": "bid-0000000123-u17",
        ]
        let packed = EncodedFields(fields)
        #expect(packed.decoded() == fields)
        // Keys, values and a byte of length or tag each: 188 bytes, against ~700 decoded (two
        // entry arrays of 40 B an entry and four heap strings).
        #expect(packed.byteCount == 188, "packed to \(packed.byteCount) bytes")
    }
}

extension EncodedFieldsTests {
    @Test("a document over the limit is not packed; one at the limit is")
    func limit() {
        let bids = Value.array(ValueArray((0..<100).map { Value.map(["amount": .double(Double($0)), "id": .string("bid-\($0)")]) }))
        let honor: Fields = ["name": "Hagbah", "bids": bids]
        let size = EncodedFields(honor).byteCount
        #expect(size > 1_024)
        #expect(EncodedFields(honor, limit: size - 1) == nil)
        #expect(EncodedFields(honor, limit: size)?.decoded() == honor)
        #expect(EncodedFields(honor, limit: 1_024) == nil)
    }
}
