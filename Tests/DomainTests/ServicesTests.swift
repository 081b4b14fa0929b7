import Domain
import SimulatedFirebase
import Testing

@Suite struct ServicesTests {
    let doc = DocumentPath("posts", "p1")

    @Test func multicastCapsTokensAndReportsUnregisteredPerToken() async throws {
        let backend = makeBackend()
        let message = PushMessage(recipient: "u", type: "T", title: "t", body: "b")
        let tooMany = await backendError {
            _ = try await backend.messaging.sendEachForMulticast(tokens: (0...500).map { "t\($0)" }, message: message)
        }
        #expect(tooMany?.code == "INVALID_ARGUMENT")
        backend.messaging.unregister(token: "dead")
        let outcomes = try await backend.messaging.sendEachForMulticast(tokens: ["live", "dead"], message: message)
        #expect(outcomes == [.success, .unregistered])
        #expect(backend.outbox.records.map(\.token) == ["live"])
    }

    @Test func sendGridRateLimitSendsNothingAndTimeoutStillSends() async throws {
        let email = EmailMessage(to: ["x@y"], from: "f@y", subject: "s", type: "T", body: "b")
        var limited = BackendFaults.none
        limited.emailRateLimitProbability = 1
        let first = makeBackend(faults: limited)
        #expect(await backendError { try await first.email.send(email) }?.code == "RESOURCE_EXHAUSTED")
        #expect(first.outbox.records.isEmpty)
        var slow = BackendFaults.none
        slow.emailTimeoutProbability = 1
        let second = makeBackend(faults: slow)
        #expect(await backendError { try await second.email.send(email) }?.code == "DEADLINE_EXCEEDED")
        _ = await backendError { try await second.email.send(email) }  // the naive retry
        #expect(second.outbox.records.count == 2)  // no idempotency key: sent twice
    }

    @Test func networkFailureHasNoEffectButTimeoutDoes() async throws {
        var failing = BackendFaults.none
        failing.networkFailureProbability = 1
        let first = makeBackend(faults: failing)
        let a = first.client(auth: AuthContext(uid: "u"), label: "u")
        #expect(await backendError { try await a.setData(doc, ["x": 1]) }?.code == "UNAVAILABLE")
        #expect(await first.firestore.get(doc).exists == false)
        var timing = BackendFaults.none
        timing.networkTimeoutProbability = 1
        let second = makeBackend(faults: timing)
        let b = second.client(auth: AuthContext(uid: "u"), label: "u")
        #expect(await backendError { try await b.setData(doc, ["x": 1]) }?.code == "DEADLINE_EXCEEDED")
        #expect(await second.firestore.get(doc).exists == true)
    }

    @Test func rulesGuardClientReadsAndWritesButNotAdmin() async throws {
        var rules = SecurityRules()
        rules.match("posts") { request in
            switch request.operation {
            case .get, .list: return request.auth != nil
            case .create: return request.data?["author"]?.stringValue == request.auth?.uid
            case .update, .delete: return false
            }
        }
        let backend = makeBackend(rules: rules)
        let user = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let anonymous = backend.client(auth: nil, label: "anon")
        try await user.setData(doc, ["author": "u"])
        #expect(await backendError { try await user.setData(doc, ["author": "u", "x": 1]) }
            == .permissionDenied(operation: "update", path: "posts/p1"))
        #expect(await backendError { _ = try await anonymous.get(doc) } == .permissionDenied(operation: "get", path: "posts/p1"))
        #expect(await backendError { try await user.setData(DocumentPath("other", "x"), ["a": 1]) }?.code == "PERMISSION_DENIED")
        try await backend.firestore.update(doc, ["x": .set(1)])  // admin SDK bypasses rules
    }
}
