@testable import Domain
@testable import SimulatedFirebase
import Testing

/// The five apps have one shape: `app.client(…)` for a user's device, `<App>Error` with
/// `.backend(BackendError)`, one `<App>Variant` with `careful` the default.
@Suite("One shape for the five apps")
struct AppShapeTests {
    @Test("Every app's error wraps the backend's the same way, and BackendError.inside finds it")
    func errorsWrapTheBackend() {
        let unavailable = BackendError.unavailable("network down")
        let wrapped: [any AppError] = [
            KNBError.backend(unavailable), UFreeError.backend(unavailable), StampbookError.backend(unavailable),
            InspiredError.backend(unavailable), SafeNSoundError.backend(unavailable),
        ]
        for error in wrapped {
            #expect(error.backendError == unavailable)
            #expect(BackendError.inside(error) == unavailable)
        }
        #expect(BackendError.inside(unavailable) == unavailable)
        // A business refusal carries no backend error: a retry policy does not retry it.
        #expect(BackendError.inside(KNBError.seatTaken("A-1")) == nil)
        #expect(BackendError.inside(UFreeError.nudgeTooSoon(fromUserId: "a", toUserId: "b", retryAfterSeconds: 60)) == nil)
        #expect(BackendError.inside(SafeNSoundError.rateLimited(userId: "u", retryAfterSeconds: 60)) == nil)
        #expect(KNBError.wrap(KNBError.emptyPost) == .emptyPost)
        #expect(KNBError.wrap(unavailable) == .backend(unavailable))
    }

    @Test("Every app has one variant enum with careful first, parsed by name with the valid names on error")
    func variants() throws {
        func check<V: AppVariant>(_ type: V.Type) throws {
            #expect(V.allCases.first == V.careful, "\(V.app)")
            #expect(try V.named(nil) == V.careful)
            for variant in V.allCases { #expect(try V.named(variant.rawValue) == variant) }
            #expect(throws: AppVariantError(app: V.app, name: "nope", valid: V.allCases.map(\.rawValue))) { try V.named("nope") }
        }
        try check(KNBVariant.self)
        try check(UFreeVariant.self)
        try check(StampbookVariant.self)
        try check(InspiredVariant.self)
        try check(SafeNSoundVariant.self)
        #expect(AppVariantCatalog.entries.filter { $0.name == "careful" }.map(\.app) == ["knb", "ufree", "stampbook", "inspired", "safensound"])
    }

    @Test("A SafeNSound device checks in through the callable over its network")
    func safeNSoundClientChecksIn() async throws {
        let backend = makeBackend(faults: .none)
        let app = SafeNSoundApp.deployed(on: backend)
        try await app.registerUser(SafeNSoundUser(
            userId: "u1", name: "Ana", fcmToken: "tok-u1", emergencyContactEmails: ["sam@example.com"],
            checkInThresholdHours: 72, lastHeartbeat: backend.env.clock.now, timeZoneIdentifier: "America/Los_Angeles"))
        try await backend.env.clock.sleep(for: .seconds(120))
        let device = app.client(uid: "u1")
        let accepted = try await device.checkIn(timeZone: "Europe/London")
        #expect(await app.user("u1")?.lastHeartbeat == accepted)
        #expect(await app.user("u1")?.timeZoneIdentifier == "Europe/London")
        await #expect(throws: SafeNSoundError.rateLimited(userId: "u1", retryAfterSeconds: 60)) {
            try await device.checkIn(timeZone: "Europe/London")
        }
        try await backend.env.clock.sleep(for: .seconds(120))
        device.firestore.network.setOnline(false)
        let offline = await #expect(throws: SafeNSoundError.self) { try await device.checkIn(timeZone: "Europe/London") }
        #expect(offline?.backendError != nil)
        #expect(await app.user("u1")?.lastHeartbeat == accepted)
    }

    @Test("UFree, Stampbook and Inspired devices act as their uid; a signed-out device is refused")
    func clientsActAsTheirUser() async throws {
        let backend = makeBackend(faults: .none)
        let ufree = UFreeApp(backend: backend)
        let ana = ufree.client(uid: "ana")
        try await ana.registerUser(displayName: "Ana", timeZoneIdentifier: "UTC")
        #expect(ana.uid == "ana")
        #expect(await backend.firestore.get(DocumentPath("users", "ana")).exists)
        await #expect(throws: UFreeError.unauthenticated) { try await ufree.client(uid: nil).inbox() }
        let inspired = InspiredApp(backend: makeBackend(faults: .none))
        await #expect(throws: InspiredError.unauthenticated) { try await inspired.client(uid: nil).createProfile(displayName: "X") }
        let stampbook = StampbookApp(backend: makeBackend(faults: .none))
        await #expect(throws: StampbookError.unauthenticated) { try await stampbook.client(uid: nil).collectStamp("s") }
    }
}
