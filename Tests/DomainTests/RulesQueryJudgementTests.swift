import Domain
import SimulatedFirebase
import Testing

/// Rules are not filters: a query's `list` is judged once, on what its filter pins, never on the
/// documents it finds (docs/domain.md, "Rules are not filters").
@Suite struct RulesQueryJudgementTests {
    @Test func aQueryIsJudgedOnEachCaseItsFilterAllows() {
        let filter = QueryFilter.and([
            .field("owner", .equal, "ann"), .field("meta.kind", .equal, "post"), .field("likes", .greaterThan, .int(3)),
            .or([.field("state", .equal, "open"), .field("state", .in, .array(["held", "sold"]))]),
        ])
        #expect(filter.ruleCases == ["open", "held", "sold"].map { state -> Fields in
            ["owner": "ann", "meta": .map(["kind": "post"]), "state": .string(state)]
        })
        #expect(QueryFilter.field("members", .arrayContains, "ann").ruleCases == [["members": .array(["ann"])]])
        #expect(QueryFilter.field("tags", .arrayContainsAny, .array(["a", "b"])).ruleCases == [["tags": .array(["a"])], ["tags": .array(["b"])]])
        #expect(QueryFilter.field("owner", .notEqual, "ann").ruleCases == [[:]])
        #expect(QueryFilter.unary("owner", .isNull).ruleCases == [["owner": .null]])
        // A filter expanding past the limit pins nothing.
        let wide = QueryFilter.and((0..<4).map { field in .field("f\(field)", .in, .array((0..<10).map { .int($0) })) })
        #expect(wide.ruleCases == [[:]])
    }

    @Test func aFriendshipQueryIsAllowedOnlyWhenItsFilterPinsTheCallersPair() throws {
        try onSimulator(seed: 3) { env in
            let backend = Backend(env: env, faults: .none)
            backend.setRules(UFreeApp.securityRules)
            try await backend.firestore.set(DocumentPath("friendships", "ann_ben"), ["members": .array(["ann", "ben"])])
            let ann = backend.client(auth: AuthContext(uid: "ann"), label: "ann")
            let pinned = Query("friendships", filter: .field("members", .equal, .array(["ann", "ben"])))
            #expect(try await ann.query(pinned).map(\.path.id) == ["ann_ben"])
            // Every document found is ann's, yet a query that pins nothing is refused, and so is
            // one filtered on the device (the server sees no filter).
            await #expect(throws: BackendError.self) { try await ann.query(Query("friendships")) }
            await #expect(throws: BackendError.self) { try await ann.query("friendships") { $0["members"] == .array(["ann", "ben"]) } }
            // Pinning a pair without the caller is refused even when no document matches; a query
            // whose every case holds the caller is allowed (array-contains pins an array holding her).
            let others = Query("friendships", filter: .field("members", .equal, .array(["ben", "cat"])))
            await #expect(throws: BackendError.self) { try await ann.query(others) }
            #expect(try await ann.query(Query("friendships", filter: .field("members", .arrayContains, "ann"))).count == 1)
            let either = Query("friendships", filter: .or([.field("members", .arrayContains, "ann"), .field("members", .arrayContains, "ben")]))
            await #expect(throws: BackendError.self) { try await ann.query(either) }
        }
    }

    @Test func rulesCompareNumbersByValue() {
        #expect(RuleRequest.same(.int(1), .double(1)))
        #expect(RuleRequest.same(.array([.int(1)]), .array([.double(1)])))
        #expect(!RuleRequest.same(.int(1), .string("1")))
        #expect(!RuleRequest.same(nil, .null))
        #expect(RuleRequest.same(nil, nil))
    }
}

/// `request.time` is the server's clock when the rules judge a request.
@Suite struct RulesRequestTimeTests {
    @Test func aRuleReadsTheServersTime() throws {
        try onSimulator(seed: 5) { env in
            let backend = Backend(env: env, faults: .none)
            let closing = Timestamp(unixNanoseconds: env.clock.now.unixNanoseconds + 60_000_000_000)
            var rules = SecurityRules()
            rules.match("bids") { request in request.time.map { $0 < closing } ?? false }
            backend.setRules(rules)
            let ann = backend.client(auth: AuthContext(uid: "ann"), label: "ann")
            _ = try await ann.setData(DocumentPath("bids", "b1"), ["amount": 5])
            try await env.clock.sleep(for: .seconds(61))
            await #expect(throws: BackendError.self) { _ = try await ann.setData(DocumentPath("bids", "b2"), ["amount": 6]) }
        }
    }
}
