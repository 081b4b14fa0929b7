import Foundation
import FirestoreREST
import RehearsalTestSupport
import SimulatedFirebase
import Testing

/// The functions host against Google's Firestore emulator started with `--functions_emulator`:
/// registered triggers fire for the changes they match (and no others), each event carries the
/// document after and before, every trigger one change fires shares its event id, and events
/// arrive in commit order. Real sockets and a real emulator; waits are for events, never timed.
@Suite(.needsFirestoreEmulator, .tags(.subprocess)) struct TriggerHostTests {
    @Test func theEmulatorPostsEveryMatchingChangeToTheHost() async throws {
        let host = try await TriggerHost.start()
        let emulator = try await FirestoreEmulator.start(functionsEmulator: host.address, readiness: .seconds(600))
        defer { emulator.stop() }
        let client = FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-triggers")
        try await client.register(EmulatorTrigger(name: "onHonorWrite", event: .write, document: "honors/{honorId}"))
        try await client.register(EmulatorTrigger(name: "onHonorCreate", event: .create, document: "honors/{honorId}"))

        let honor = DocumentPath("honors", "h1")
        try await client.commit([RESTWrite(.create(["amount": 5]), at: honor)])
        try await client.commit([RESTWrite(.update(["amount": .increment(2)]), at: honor)])
        try await client.commit([RESTWrite(.set(["amount": 1]), at: DocumentPath("honors/h1/bids/b1"))])  // deeper: no trigger
        try await client.commit([RESTWrite(.delete, at: honor)])

        // Never a hang: if the events stop coming, the stream ends and the expectations say what came.
        let giveUp = Task { try await Task.sleep(for: .seconds(300)); await host.stop() }
        defer { giveUp.cancel() }
        var events: [TriggerDelivery] = []
        for await delivery in host.deliveries {
            events.append(delivery)
            if events.count == 4 { break }
        }
        #expect(events.map(\.trigger) == ["onHonorWrite", "onHonorCreate", "onHonorWrite", "onHonorWrite"]
                || events.map(\.trigger) == ["onHonorCreate", "onHonorWrite", "onHonorWrite", "onHonorWrite"], "\(events.map(\.trigger))")
        let writes = events.filter { $0.trigger == "onHonorWrite" }
        #expect(writes.map(\.change) == [.created, .updated, .deleted])
        #expect(writes.allSatisfy { $0.event == .write } && events.first { $0.trigger == "onHonorCreate" }?.event == .create)
        #expect(writes.allSatisfy { $0.path == honor && $0.project == "demo-triggers" })
        #expect(writes[0].oldValue == nil && writes[0].value?.fields?["amount"] == 5)
        #expect(writes[1].oldValue?.fields?["amount"] == 5 && writes[1].value?.fields?["amount"] == 7)
        #expect(writes[2].oldValue?.fields?["amount"] == 7 && writes[2].value == nil)
        let created = try #require(events.first { $0.trigger == "onHonorCreate" })
        #expect(created.eventId == writes[0].eventId && writes[0].eventId != writes[1].eventId)
        #expect(host.received == 4 && host.refused == 0)
        await host.stop()
    }

    @Test func aMalformedTriggerIsRefusedBeforeAnyRequest() {
        #expect(throws: RESTError.self) { try EmulatorTrigger(name: "on bid", event: .write, document: "honors/{id}") }
        #expect(throws: RESTError.self) { try EmulatorTrigger(name: "onBid", event: .write, document: "honors") }
        #expect(throws: RESTError.self) { try EmulatorTrigger(name: "onBid", event: .write, document: "honors//bids/{b}") }
    }
}
