import FirestoreREST
import Foundation
import Synchronization

/// One emulator for every test of this target: the one `FIRESTORE_EMULATOR_HOST` names (`.ci/run`
/// starts it before the tests), or else one started at the first use and stopped when the process
/// exits. Started once however many tests ask at the same time; a project id per test, so tests
/// running in parallel never see each other's documents.
actor SharedEmulator {
    static let shared = SharedEmulator()
    private var starting: Task<FirestoreEmulator, any Error>?
    private var counter = 0

    /// The running emulator.
    func emulator() async throws -> FirestoreEmulator {
        if let starting { return try await starting.value }
        let task = Task<FirestoreEmulator, any Error> {
            if let address = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"], !address.isEmpty {
                return try await FirestoreEmulator.attach(address, readiness: .seconds(120))
            }
            // A JVM starting beside a parallel test run on two busy cores can take minutes.
            let emulator = try await FirestoreEmulator.start(readiness: .seconds(600))
            SharedEmulator.running.withLock { $0 = emulator }
            atexit { SharedEmulator.stopAtExit() }
            return emulator
        }
        starting = task
        return try await task.value
    }

    /// An owner client of a project no other test uses.
    func freshClient(_ name: String) async throws -> FirestoreRESTClient {
        let emulator = try await emulator()
        counter += 1
        return FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-\(name.lowercased())-\(counter)")
    }

    private static let running = Mutex<FirestoreEmulator?>(nil)
    private static func stopAtExit() { running.withLock { $0?.stop() } }
}
