import Domain
import SimulatedFirebase
import Testing

@Suite struct FunctionsTests {
    let doc = DocumentPath("posts", "p1")

    @Test(arguments: [true, false]) func duplicatesShareEventIdOnlyWhenSwitchedOn(share: Bool) async throws {
        var faults = BackendFaults.none
        faults.triggerDuplicateProbability = 1
        faults.duplicatesShareEventId = share
        let backend = makeBackend(faults: faults)
        let log = EventLog()
        backend.functions.onCreate("posts", name: "log") { await log.add($0) }
        try await backend.firestore.create(doc, ["a": 1])
        await backend.waitUntilIdle()
        let events = await log.events
        #expect(events.count == 2)
        #expect(events.filter(\.isDuplicate).count == 1)
        #expect((events[0].eventId == events[1].eventId) == share)
    }

    @Test func throwingHandlerLosesItsEventUnlessRetriesAreOn() async throws {
        for retries in [false, true] {
            var faults = BackendFaults.none
            faults.triggerRetriesEnabled = retries
            let backend = makeBackend(faults: faults)
            let calls = Counter()
            backend.functions.onCreate("posts", name: "flaky") { _ in
                if calls.next() == 1 { throw BackendError.unavailable("boom") }
            }
            try await backend.firestore.create(doc, ["a": 1])
            await backend.waitUntilIdle()
            #expect(calls.count == (retries ? 2 : 1))
            #expect(backend.functions.lostEvents.count == (retries ? 0 : 1))
        }
    }

    @Test func triggersMatchSubcollectionPatterns() async throws {
        let backend = makeBackend()
        let log = EventLog()
        backend.functions.onCreate("users/{uid}/notifications", name: "n") { await log.add($0) }
        try await backend.firestore.create(DocumentPath("users/a/notifications", "n1"), ["t": 1])
        try await backend.firestore.create(DocumentPath("users", "a"), ["t": 1])
        await backend.waitUntilIdle()
        #expect(await log.events.map(\.path.description) == ["users/a/notifications/n1"])
    }

    @Test func scheduledFunctionTicksWithDuplicatesAndIsCallableDirectly() async throws {
        var faults = BackendFaults.none
        faults.scheduleDuplicateProbability = 1
        let backend = makeBackend(faults: faults)
        let runs = RunLog()
        backend.functions.schedule("sync", every: .seconds(1800)) { await runs.add($0) }
        let start = backend.env.clock.now
        await backend.scheduler.start(until: start + .seconds(3 * 1800))
        await backend.waitUntilIdle()
        let all = await runs.runs
        #expect(all.count == 6)  // 3 ticks, each run twice
        #expect(Set(all.map(\.tickId)).count == 3)
        try await backend.functions.runScheduled("sync", at: start)
        #expect(await runs.runs.last?.scheduledTime == start)
        let unknown = await backendError { try await backend.functions.runScheduled("nope", at: start) }
        #expect(unknown == .unknownFunction("nope"))
    }

    @Test func callableSeesAuthContext() async throws {
        let backend = makeBackend()
        backend.functions.callable("whoami") { request in
            guard let auth = request.auth else { throw BackendError.unauthenticated("whoami needs a user") }
            return .string("\(auth.uid):\(auth.role.rawValue)")
        }
        let admin = backend.client(auth: AuthContext(uid: "a", role: .admin), label: "a")
        #expect(try await admin.call("whoami") == "a:admin")
        let anonymous = backend.client(auth: nil, label: "anon")
        #expect(await backendError { _ = try await anonymous.call("whoami") }?.code == "UNAUTHENTICATED")
    }

    @Test func listenersDeliverChangesInOrder() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(DocumentPath("posts", "p0"), ["a": 0])
        let seen = ChangeLog()
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        let listener = client.listen("posts") { await seen.add($0) }
        try await backend.firestore.create(doc, ["a": 1])
        try await backend.firestore.update(doc, ["a": .set(2)])
        await backend.waitUntilIdle()
        let changes = await seen.changes
        #expect(changes.map(\.kind) == [.create, .create, .update])
        #expect(changes.last?.after["a"] == 2)
        listener.remove()
    }
}

actor RunLog {
    var runs: [ScheduledRun] = []
    func add(_ run: ScheduledRun) { runs.append(run) }
}

actor ChangeLog {
    var changes: [DocumentChange] = []
    func add(_ batch: [DocumentChange]) { changes += batch }
}
