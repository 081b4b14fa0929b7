import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Google's Firestore emulator as a child process on a loopback port: found where the Cloud SDK's
/// Debian package installs it (`google-cloud-cli-firestore-emulator`), started in its own process
/// group, waited for until it answers, stopped with the group. Real processes and real time: this
/// is the one place outside load mode that reads the wall clock (readiness deadline), said here.
public final class FirestoreEmulator: Sendable {
    /// Where the emulator listens (`http://127.0.0.1:PORT`).
    public let baseURL: URL
    /// `127.0.0.1:PORT`.
    public let address: String
    /// The child's process id (also its process group), 0 for an emulator this process did not start.
    public let processId: pid_t
    /// The file the emulator's output goes to.
    public let logPath: String

    private init(address: String, processId: pid_t, logPath: String) {
        self.address = address
        self.baseURL = URL(string: "http://\(address)")!
        self.processId = processId
        self.logPath = logPath
    }

    /// The emulator's launcher, or nil when the package is not installed. `FIRESTORE_EMULATOR_LAUNCHER`
    /// overrides the search.
    public static func launcher() -> String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let explicit = environment["FIRESTORE_EMULATOR_LAUNCHER"] { candidates.append(explicit) }
        if let root = environment["CLOUDSDK_ROOT_DIR"] { candidates.append("\(root)/platform/cloud-firestore-emulator/cloud_firestore_emulator") }
        candidates += ["/usr/lib/google-cloud-sdk", "/usr/share/google-cloud-sdk", "/opt/google-cloud-sdk"]
            .map { "\($0)/platform/cloud-firestore-emulator/cloud_firestore_emulator" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// One line for a machine without the emulator.
    public static let notInstalled = "the Firestore emulator is not installed (Debian package google-cloud-cli-firestore-emulator, with Java 17)"

    /// Starts an emulator on a free loopback port (with `rules`, a rules file's path, and
    /// `functionsEmulator`, the `HOST:PORT` it posts trigger events to) and waits until it answers.
    public static func start(rules: String? = nil, functionsEmulator: String? = nil, readiness: Duration = .seconds(60)) async throws(EmulatorError) -> FirestoreEmulator {
        guard let launcher = launcher() else { throw .notInstalled }
        let port = try freePort()
        let logPath = NSTemporaryDirectory() + "rehearse-firestore-emulator-\(port).log"
        var arguments = [launcher, "start", "--host=127.0.0.1", "--port=\(port)"]
        if let rules { arguments.append("--rules=\(rules)") }
        if let functionsEmulator { arguments.append("--functions_emulator=\(functionsEmulator)") }
        let command = arguments.map(shellQuoted).joined(separator: " ") + " > \(shellQuoted(logPath)) 2>&1 < /dev/null"
        let processId = try spawnGroup(["/bin/sh", "-c", "exec " + command])
        let emulator = FirestoreEmulator(address: "127.0.0.1:\(port)", processId: processId, logPath: logPath)
        do {
            try await emulator.waitUntilReady(within: readiness)
        } catch {
            emulator.stop()
            throw error
        }
        return emulator
    }

    /// An emulator someone else runs at `address` (`HOST:PORT`), checked to answer as one.
    public static func attach(_ address: String, readiness: Duration = .seconds(2)) async throws(EmulatorError) -> FirestoreEmulator {
        guard let url = URL(string: "http://\(address)"), url.host != nil, url.port != nil else { throw .badAddress(address) }
        let emulator = FirestoreEmulator(address: address, processId: 0, logPath: "")
        try await emulator.waitUntilReady(within: readiness)
        return emulator
    }

    /// Polls the emulator's root (it answers `Ok`) until it does, or `limit` of real time passed.
    func waitUntilReady(within limit: Duration) async throws(EmulatorError) {
        let clock = ContinuousClock()  // real time: a child process's start-up (see the type's comment)
        let deadline = clock.now + limit
        var lastProblem = "no answer"
        while clock.now < deadline {
            if processId != 0 && kill(processId, 0) != 0 { throw .died(logTail()) }
            switch await probe() {
            case .ready: return
            case .notAnEmulator(let what): throw .notAnEmulator(address, what)
            case .noAnswer(let why): lastProblem = why
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        throw .notReady(address, lastProblem)
    }

    enum Probe { case ready, notAnEmulator(String), noAnswer(String) }

    /// One look at the emulator's root page.
    func probe() async -> Probe {
        var request = URLRequest(url: baseURL)
        request.timeoutInterval = 2
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let text = String(decoding: data.prefix(100), as: UTF8.self)
            guard (response as? HTTPURLResponse)?.statusCode == 200, text.hasPrefix("Ok") else {
                return .notAnEmulator("it answered \((response as? HTTPURLResponse)?.statusCode ?? 0) \(text.prefix(40))")
            }
            return .ready
        } catch {
            return .noAnswer(error.localizedDescription)
        }
    }

    /// Whether the emulator still answers.
    public func isAlive() async -> Bool {
        if case .ready = await probe() { return true }
        return false
    }

    /// Stops an emulator this process started (its whole process group: the launcher and Java).
    public func stop() {
        guard processId > 0 else { return }
        kill(-processId, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(processId, &status, WNOHANG) != 0 { break }
            usleep(100_000)
        }
        kill(-processId, SIGKILL)
        _ = waitpid(processId, &status, WNOHANG)
    }

    /// The last lines the emulator printed.
    public func logTail(lines: Int = 5) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }

    /// A loopback port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws(EmulatorError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .spawnFailed("socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw .spawnFailed("bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `arguments` in a process group of its own (so stop reaches Java's children too).
    static func spawnGroup(_ arguments: [String]) throws(EmulatorError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var processId: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&processId, arguments[0], nil, &attributes, argv, environ)
        guard result == 0 else { throw .spawnFailed("posix_spawn \(arguments[0]): \(result)") }
        return processId
    }

    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// Why an emulator could not be started or used.
public enum EmulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Debian package is not installed.
    case notInstalled
    /// `HOST:PORT` could not be parsed.
    case badAddress(String)
    /// Nothing answered at the address within the time allowed.
    case notReady(String, String)
    /// Something answered, but not as the Firestore emulator does.
    case notAnEmulator(String, String)
    /// The emulator process exited before it answered (its last lines).
    case died(String)
    /// The process could not be started.
    case spawnFailed(String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .notInstalled: FirestoreEmulator.notInstalled
        case .badAddress(let address): "'\(address)' is not HOST:PORT"
        case .notReady(let address, let why): "no Firestore emulator answers at \(address) (\(why))"
        case .notAnEmulator(let address, let what): "\(address) is not a Firestore emulator: \(what)"
        case .died(let tail): "the Firestore emulator exited while starting: \(tail)"
        case .spawnFailed(let why): "could not start the Firestore emulator: \(why)"
        }
    }
}
