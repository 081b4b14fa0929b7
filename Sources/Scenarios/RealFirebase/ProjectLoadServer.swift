import FirebaseHarness
import FirestoreREST
import Foundation
import Harness
import SimulatedFirebase

// REAL NETWORK ON PURPOSE: a real project's Firestore, for a wall-clock load run only.

/// A real Firebase project's Firestore as the server of a load run (`rehearse load …
/// --backend firestore --project P`), with an OAuth access token from `REHEARSAL_FIRESTORE_TOKEN`
/// (`gcloud auth print-access-token`). Every request carries the token, so security rules are not
/// enforced (no end user's ID token can be minted here); the project's own deployed functions
/// answer its triggers, not this process; the profile's documents are written into the project's
/// default database (a staging project, never production's). docs/real-firestore.md, "A real project".
public final class ProjectLoadServer: FirestoreLoadServer {
    public let name: String
    private let client: FirestoreRESTClient

    private init(client: FirestoreRESTClient) {
        self.client = client
        self.name = "Firestore project \(client.project) at \(client.baseURL.absoluteString)"
    }

    /// The variable the access token is read from.
    public static let tokenVariable = "REHEARSAL_FIRESTORE_TOKEN"
    /// The variable that points the client elsewhere than production (tests: the emulator).
    public static let urlVariable = "REHEARSAL_FIRESTORE_URL"

    /// Makes `--backend firestore --project P` available to `rehearse load`.
    public static func register() {
        LoadServers.register("firestore", usage: "firestore (with --project P)", summary: "a real project's Firestore (--project P, token in \(tokenVariable))") { address, options throws(LoadServerError) in
            if let address { throw LoadServerError("--backend firestore takes no address (\(address)); the project is --project P") }
            return try await start(project: options["project"], environment: ProcessInfo.processInfo.environment)
        }
    }

    /// Checks the project id and the token, then reads one document to learn that the server
    /// answers, knows the project and takes the token. Each failure is one line.
    public static func start(project: String?, environment: [String: String]) async throws(LoadServerError) -> ProjectLoadServer {
        guard let project else { throw LoadServerError("--backend firestore needs --project P (the Firebase project id)") }
        guard (6...30).contains(project.count), project.first?.isLetter == true,
              project.allSatisfy({ ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }) else {
            throw LoadServerError("--project \(project.debugDescription): a project id is 6 to 30 lowercase letters, digits and hyphens, starting with a letter")
        }
        guard let token = environment[tokenVariable], !token.isEmpty else {
            throw LoadServerError("\(tokenVariable) is not set: export an OAuth access token, e.g. \(tokenVariable)=$(gcloud auth print-access-token)")
        }
        let base = environment[urlVariable] ?? "https://firestore.googleapis.com"
        guard let url = URL(string: base), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw LoadServerError("\(urlVariable) \(base.debugDescription) is not an http(s) URL")
        }
        let client = FirestoreRESTClient(baseURL: url, project: project, credential: .accessToken(token), timeout: .seconds(10))
        do {
            try await probe(client)
        } catch {
            switch error.code {
            case "UNAUTHENTICATED", "PERMISSION_DENIED": throw LoadServerError("project \(project) refused the token in \(tokenVariable): \(error)")
            case "INVALID_ARGUMENT" where error.description.contains("jwt"):
                throw LoadServerError("the server refused the token in \(tokenVariable): \(error)")
            case "NOT_FOUND": throw LoadServerError("project \(project) has no Firestore database at \(base): \(error)")
            default: throw LoadServerError("\(base) did not answer for project \(project): \(error)")
            }
        }
        return ProjectLoadServer(client: client)
    }

    /// One read of a document nobody writes: what the server says of the project and the token.
    /// A server that does not answer in time is asked again, three times in all (a busy server's
    /// first answer can be slow); any answer, error or not, is final.
    private static func probe(_ client: FirestoreRESTClient) async throws(RESTError) {
        for attempt in 1...3 {
            do {
                _ = try await client.get(DocumentPath("rehearsal_probe", "probe"))
                return
            } catch {
                guard case .unreachable = error, attempt < 3 else { throw error }
            }
        }
    }

    public func newProject(for scenario: String) -> any FirestoreRemote {
        RemoteFirestore(admin: client, serverDescription: name, emulator: false)
    }

    public func attach(_ backend: Backend) {}

    public func notes() async -> [String] {
        [
            "Firestore: \(name); every request carries the access token, so the project's security rules are not enforced; rules are not deployed from the app",
            "triggers: none run in this process (the functions deployed to the project answer them)",
            "FCM, SendGrid and Storage: simulated on the wall clock, with the profile's faults",
            "written into the project's default database: the profile's documents, which runs do not remove",
        ]
    }

    public func problem() async -> String? { nil }

    public func stop() async {}
}
