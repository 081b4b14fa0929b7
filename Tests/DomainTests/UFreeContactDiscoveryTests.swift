@testable import Domain
@testable import SimulatedFirebase
import Testing

/// UFree contact discovery: phone numbers normalised from the formats address books hold (a
/// table of known answers), the blind index keyed where the public hash is not, and the careful
/// callables' quota and rules on the simulated backend.
@Suite struct UFreeContactDiscoveryTests {
    @Test(arguments: [
        ("(415) 555-0123", "US", "+14155550123"), ("415-555-0123", "US", "+14155550123"), ("1 415.555.0123", "US", "+14155550123"),
        ("+1 415 555 0123", "GB", "+14155550123"), ("001 415 555 0123", "GB", "+14155550123"), ("011 44 20 7946 0123", "US", "+442079460123"),
        ("020 7946 0123", "GB", "+442079460123"), ("+44 (0)20 7946 0123", "US", "+442079460123"), ("+442079460123", "GB", "+442079460123"),
        ("4155550123", "US", "+14155550123"),
    ])
    func numbersNormaliseToE164(raw: String, region: String, expected: String) {
        #expect(UFreePhoneNumber.e164(raw, region: region) == expected)
    }

    @Test(arguments: [
        ("555-0199", "US"), ("ask Sam", "US"), ("+33 1 23 45 67 89", "GB"), ("07700 9001", "GB"), ("020 7946 0123", "US"),
        ("(415) 555-0123", "GB"), ("", "US"), ("++1 415 555 0123", "US"), ("415 555 0123", "FR"),
    ])
    func whatIsNotANumberOfThePlansIsRefused(raw: String, region: String) {
        #expect(UFreePhoneNumber.e164(raw, region: region) == nil)
    }

    @Test func theBlindIndexNeedsTheKeyThePublicHashDoesNot() {
        let number = "+14155550123"
        #expect(UFreePhoneNumber.publicHash(number) == UFreePhoneNumber.publicHash(number))
        #expect(UFreePhoneNumber.publicHash(number) != UFreePhoneNumber.publicHash("+14155550124"))
        #expect(UFreePhoneNumber.blindIndex(number, pepper: 7) != UFreePhoneNumber.blindIndex(number, pepper: 9))
        #expect(UFreePhoneNumber.blindIndex(number, pepper: 7) != UFreePhoneNumber.publicHash(number))
        #expect(UFreePhoneNumber.publicHash("").count == 16)
    }

    @Test func theCarefulLookupAnswersWithinTheQuotaAndTheIndexIsServerOnly() async throws {
        do {
            let app = UFreeApp(backend: makeBackend())
            app.deployContactDiscovery(lookupsPerDay: 3)
            let alice = app.client(uid: "alice"), bob = app.client(uid: "bob")
            try await alice.registerUser(displayName: "Alice", timeZoneIdentifier: "America/Los_Angeles")
            try await bob.registerUser(displayName: "Bob", timeZoneIdentifier: "Europe/London")
            try await bob.registerPhoneNumber("020 7946 0123", region: "GB")
            let found = try await alice.discoverContacts(["+44 20 7946 0123", "(415) 555-0000", "ask Sam", "011 44 20 7946 0123", "+1 415 555 0001"], region: "US")
            #expect(found.matches == [UFreeContactMatch(entry: "+44 20 7946 0123", userId: "bob"), UFreeContactMatch(entry: "011 44 20 7946 0123", userId: "bob")])
            #expect(found.unanswered == 1)
            await #expect(throws: UFreeError.lookupQuotaExceeded(userId: "alice", perDay: 3)) {
                _ = try await alice.discoverContacts(["+44 20 7946 0123"], region: "US")
            }
            await #expect(throws: BackendError.self) { _ = try await alice.firestore.query("phone_index") }
            let bobDocument = try await alice.firestore.get(DocumentPath("users", "bob"))
            #expect(bobDocument["hashedPhoneNumber"] == nil)
        }
    }
}
