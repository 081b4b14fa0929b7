import Harness
import Sim
import SimulatedFirebase
import Synchronization

extension LoadProfile {
    /// What a Firebase profile's set-up gets: the run's backend and the design under load.
    public struct Setup: Sendable {
        /// The backend the runner built, with the profile's faults, on the run's environment.
        public let backend: Backend
        /// The scenario's variant name, nil for the careful design (validated by the caller).
        public let variant: String?
        /// The environment of the backend (its clock is the one retries wait on).
        public var env: DomainEnvironment { backend.env }
        /// Backends built beside the main one, reported with it.
        let companions: Companions

        /// Another backend on the same environment with the same faults (an app on its own Firebase
        /// project beside the main one); its faults and coverage are reported with the run's, and a
        /// virtual run terminates it at the end.
        public func companionBackend() -> Backend {
            precondition(backend.remote == nil, "a profile with a companion backend does not run on a real server")
            let companion = Backend(env: env, faults: backend.faults, outbox: .counts)
            companions.add(companion)
            return companion
        }
    }

    /// The companion backends of one set-up.
    final class Companions: Sendable {
        private let backends = Mutex<[Backend]>([])
        func add(_ backend: Backend) { backends.withLock { $0.append(backend) } }
        var all: [Backend] { backends.withLock { $0 } }
    }

    /// A profile on the simulated Firebase: the runner's environment becomes a backend with
    /// `faults` (on the real runtime: `ContinuousClock`, the concurrent pool and the seed; in a
    /// virtual run: the simulator's), and `setUp` builds the app and its users on it.
    public init(
        scenario: String, summary: String, operations: [String], users: Int, faults: BackendFaults, runsOnRealServer: Bool = false,
        setUp: @escaping @Sendable (_ setup: Setup) async -> Workload
    ) {
        self.init(
            scenario: scenario, summary: summary, operations: operations, users: users,
            timingWindowNanoseconds: UInt64(max(0, faults.concurrencyWindow.nanoseconds))
        ) { environment in
            let env: DomainEnvironment
            switch environment.clock {
            case .wall: env = DomainEnvironment.realRuntime(seed: environment.seed, epochUnixNanoseconds: environment.epochUnixNanoseconds)
            case .virtual: env = SimulatedEnvironment.current()
            }
            let backend: Backend
            if let server = environment.server as? any FirestoreLoadServer {
                // Firestore is the server's; FCM, SendGrid and Storage stay simulated, on the wall clock.
                backend = Backend(
                    env: env, faults: .realServer(simulating: faults), outbox: .counts, remote: server.newProject(for: scenario))
                server.attach(backend)
            } else {
                backend = Backend(env: env, faults: faults, outbox: .counts)  // no checker reads a load run's outbox
            }
            let companions = Companions()
            if environment.clock == .virtual {
                Simulation.atEnd {
                    backend.terminate()
                    for companion in companions.all { companion.terminate() }
                }
            }
            let workload = await setUp(Setup(backend: backend, variant: environment.variant, companions: companions))
            let clock = env.clock
            return World(
                workload: workload,
                clock: RunClock(elapsedNanoseconds: { clock.elapsedNanoseconds }, sleep: { try await clock.sleep(for: $0) }),
                taskExecutor: env.taskExecutor, participants: ([backend] + companions.all).map(BackendParticipant.init))
        }
        self.runsOnRealServer = runsOnRealServer
    }
}
