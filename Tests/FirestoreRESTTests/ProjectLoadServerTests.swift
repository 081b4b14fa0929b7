import FirestoreREST
import Harness
import RealFirebase
import RehearsalTestSupport
import SimulatedFirebase
import Testing

/// `--backend firestore --project P`'s server, pointed at the emulator (`REHEARSAL_FIRESTORE_URL`,
/// the emulator's owner token standing for an access token): it checks the project id and the
/// token before any load, and a device's request speaks as the admin (no ID token can be minted
/// for a real project), so the project's rules do not judge it.
@Suite(.needsFirestoreEmulator, .tags(.subprocess)) struct ProjectLoadServerTests {
    func environment(token: String?) async throws -> [String: String] {
        let emulator = try await SharedEmulator.shared.emulator()
        var environment = [ProjectLoadServer.urlVariable: emulator.baseURL.absoluteString]
        environment[ProjectLoadServer.tokenVariable] = token
        return environment
    }

    @Test func aProjectWithATokenRunsItsRequestsAsTheAdmin() async throws {
        let server = try await ProjectLoadServer.start(project: "demo-project-mode", environment: environment(token: "owner"))
        #expect(server.name.hasPrefix("Firestore project demo-project-mode at http://127.0.0.1:"))
        let remote = server.newProject(for: "seat-contention")
        remote.deployRules("service cloud.firestore { match /databases/{d}/documents { match /{doc=**} { allow read, write: if false; } } }")
        let path = DocumentPath("seat_reservations", "A-1")
        // Rules that refuse everything are not deployed, and a device speaks as the admin.
        try await remote.commit([(path, .set(["reservedBy": "ann"]))], as: .user(AuthContext(uid: "ann", email: "ann@knb.test")), transaction: nil, expecting: [:])
        #expect(try await remote.get(path, as: .signedOut, transaction: nil)["reservedBy"] == "ann")
        let notes = await server.notes()
        #expect(notes.contains { $0.contains("security rules are not enforced") })
        #expect(await server.problem() == nil)
    }

    @Test(arguments: [
        (nil as String?, "owner" as String?, "needs --project P"),
        ("Bad_Id", "owner", "a project id is 6 to 30 lowercase letters"),
        ("demo-project-mode", nil, "REHEARSAL_FIRESTORE_TOKEN is not set"),
        ("demo-project-mode", "not-a-jwt", "refused the token in REHEARSAL_FIRESTORE_TOKEN"),
    ])
    func eachWrongStartIsOneLine(project: String?, token: String?, expected: String) async throws {
        let environment = try await environment(token: token)
        do {
            _ = try await ProjectLoadServer.start(project: project, environment: environment)
            Issue.record("started with project \(project ?? "nil") and token \(token ?? "nil")")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }
}
