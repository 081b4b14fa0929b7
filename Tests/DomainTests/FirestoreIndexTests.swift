import Domain
import SimulatedFirebase
import Testing

/// The indexed queries (`whereField:isEqualTo:`, `orderedBy:from:through:`), the cached id order
/// and the insertion feed, against a model of the collection kept by the test itself.
@Suite struct FirestoreIndexTests {
    static let statuses: [Value?] = [.string("scheduled"), .string("sent"), .string("cancelled"), nil]

    static func randomFields(_ random: inout TestGenerator) -> Fields {
        var fields: Fields = ["userId": .string("u\(random.next(4))")]
        if let status = statuses[random.next(statuses.count)] { fields["status"] = status }
        switch random.next(5) {
        case 0: break  // no time: in no ordered index
        case 1: fields["due"] = .int(5)  // not a timestamp: in no ordered index
        default: fields["due"] = .timestamp(Timestamp(unixNanoseconds: Int64(random.next(6)) * 1_000))
        }
        return fields
    }

    @Test("indexed queries equal a scan of the test's own model after every write, update and delete")
    func indexesMatchModel() async throws {
        let backend = makeBackend()
        let firestore = backend.firestore
        var model: [String: Fields] = [:]
        var random = TestGenerator(state: 42)
        // Ask for the indexes before and after documents exist: both must be right.
        _ = firestore.query("alerts", whereField: "status", isEqualTo: "scheduled", orderedBy: "due")
        firestore.followInsertions("alerts")
        var insertions: [String] = []
        for step in 0..<400 {
            let id = "d\(random.next(25))"
            let path = DocumentPath("alerts", id)
            switch random.next(4) {
            case 0:
                if model[id] != nil { try await firestore.delete(path); model[id] = nil }
            case 1:
                if var fields = model[id] {
                    let status = Self.statuses[random.next(Self.statuses.count)]
                    try await firestore.update(path, ["status": status.map(FieldUpdate.set) ?? .delete])
                    fields["status"] = status
                    model[id] = fields
                }
            default:
                let fields = Self.randomFields(&random)
                if model[id] == nil { insertions.append(id) }
                try await firestore.set(path, fields)
                model[id] = fields
            }
            #expect(firestore.query("alerts").map(\.id) == model.keys.sorted(), "step \(step)")
            for user in 0..<4 {
                let expected = model.keys.filter { model[$0]!["userId"] == .string("u\(user)") }.sorted()
                #expect(firestore.query("alerts", whereField: "userId", isEqualTo: .string("u\(user)")).map(\.id) == expected, "step \(step)")
            }
            for bounds in [(nil, nil), (Int64(2_000), Int64(4_000)), (nil, Int64(3_000)), (Int64(5_000), nil)] as [(Int64?, Int64?)] {
                let lower = bounds.0.map(Timestamp.init(unixNanoseconds:)), upper = bounds.1.map(Timestamp.init(unixNanoseconds:))
                func expected(status: Value?) -> [String] {
                    model.compactMap { id, fields -> (Timestamp, String)? in
                        guard let time = fields["due"]?.timestampValue else { return nil }
                        if let status, fields["status"] != status { return nil }
                        if let lower, time < lower { return nil }
                        if let upper, time > upper { return nil }
                        return (time, id)
                    }.sorted { $0 < $1 }.map(\.1)
                }
                #expect(firestore.query("alerts", whereField: "status", isEqualTo: "scheduled", orderedBy: "due", from: lower, through: upper).map(\.id)
                        == expected(status: "scheduled"), "step \(step)")
                #expect(firestore.query("alerts", orderedBy: "due", from: lower, through: upper).map(\.id) == expected(status: nil), "step \(step)")
            }
            #expect(firestore.insertedIds("alerts", from: 0) == insertions, "step \(step)")
        }
        #expect(firestore.insertedIds("alerts", from: insertions.count - 3) == Array(insertions.suffix(3)))
        #expect(firestore.insertedIds("alerts", from: insertions.count + 5).isEmpty)
    }
}
