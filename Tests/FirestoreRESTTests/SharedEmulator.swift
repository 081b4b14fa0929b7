import Synchronization
import FirestoreREST
import Foundation

/// One emulator for every test of this target (started at the first use, a project id per test so
/// tests running in parallel never see each other's documents), stopped when the process exits.
actor SharedEmulator {
    static let shared = SharedEmulator()
    private var started: FirestoreEmulator?
    private var counter = 0

    /// The running emulator.
    func emulator() async throws -> FirestoreEmulator {
        if let started { return started }
        let emulator = try await FirestoreEmulator.start()
        started = emulator
        atexit { SharedEmulator.stopAtExit() }
        SharedEmulator.running.withLock { $0 = emulator }
        return emulator
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
