import Domain
import SimulatedFirebase
import Testing

/// The batched set-up of a load run against a real server leaves the documents the app's own
/// calls leave: `importUsers` what `register` + `registerToken` write, `importHonors` what
/// `createHonor` writes (push-token times aside: each is the clock at its own write).
@Suite struct KNBImportTests {
    @Test func importedUsersAndHonorsEqualTheOnesTheAppWrites() async throws {
        let knb = try await makeKNB()
        let imported = KNBApp(backend: Backend(env: testEnvironment(seed: 1), faults: .none))
        try await imported.importUsers([(email: "alice@knb.org", name: "alice", token: "tok-alice")])
        try await imported.importHonors([(id: "h1", name: "Petichah", buyNowPrice: 100)])

        func withoutTokenTimes(_ fields: Fields?) -> Fields? {
            guard var fields, case .map(var tokens)? = fields["fcmTokens"] else { return fields }
            for key in tokens.keys { if case .map(var entry)? = tokens[key] { entry["updatedAt"] = nil; tokens[key] = .map(entry) } }
            fields["fcmTokens"] = .map(tokens)
            return fields
        }
        let user = DocumentPath("users", "alice@knb.org"), honor = DocumentPath("honors", "h1")
        let written = await knb.app.backend.firestore.get(user).fields, batched = await imported.backend.firestore.get(user).fields
        #expect(batched?["fcmTokens"]?.mapValue?["tok-alice"]?.mapValue?["updatedAt"] != nil)
        #expect(withoutTokenTimes(written) == withoutTokenTimes(batched))
        #expect(await knb.app.backend.firestore.get(honor).fields == imported.backend.firestore.get(honor).fields)
        imported.backend.terminate()
        knb.app.backend.terminate()
    }
}
