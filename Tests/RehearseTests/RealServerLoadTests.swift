import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import RehearsalTestSupport
import Testing

/// `rehearse load … --backend emulator`: the KNB profiles against Google's Firestore emulator
/// (started by each run), every operation answered by the server, the report naming it and the
/// trigger events it delivered; and each way the choice can be wrong, one line and exit 2 before
/// any load. No timing assertions: counts, verdicts and the report's words.
@Suite(.serialized, .needsFirestoreEmulator, .tags(.subprocess)) struct RealServerLoadTests {
    @Test(arguments: [("seat-contention", "reserveSeat", false), ("auction-race", "placeBid", true), ("like-storm", "reply", true), ("kiddush-booking", "bookKiddush", true)])
    func aProfileRunsAgainstTheEmulator(scenario: String, operation: String, firesTriggers: Bool) throws {
        let folder = try LoadCommandTests.freshFolder()
        let result = try CommandLineRunner.run([
            "load", scenario, "--backend", "emulator", "--rate", "10/s", "--duration", "1s", "--report-dir", folder.path,
        ])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("against Firestore emulator at 127.0.0.1:"))
        let runId = "\(scenario)-load-emulator-constant-arrival-rate-10ps"
        let report = try LoadCommandTests.reportJSON(folder, scenario: scenario, runId: runId)
        let load = try #require(report["load"] as? [String: Any])
        #expect((load["server"] as? String)?.hasPrefix("Firestore emulator at 127.0.0.1:") == true)
        #expect((load["errors"] as? [String: Int] ?? [:]).values.allSatisfy { $0 == 0 }, "\(load["errors"] ?? "")")
        let latency = try #require(report["latency"] as? [[String: Any]])
        #expect((latency.first { $0["operation"] as? String == operation }?["count"] as? Int ?? 0) >= 1)
        let notes = load["serverNotes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("Firestore: Firestore emulator at") && $0.contains("project r-\(scenario)-") })
        #expect(notes.contains { $0.contains("FCM, SendGrid and Storage: simulated") })
        // Triggers fire for the bids and posts: the emulator delivered their events to the functions here.
        let delivered = notes.first { $0.hasPrefix("triggers: ") }.flatMap { Int($0.dropFirst("triggers: ".count).prefix { $0.isNumber }) }
        #expect(firesTriggers ? (delivered ?? 0) > 0 : delivered == 0, "\(notes)")
        // Every event the run's commits owed arrived: received equals owed, none lost.
        let owed = try #require(notes.first { $0.hasPrefix("trigger events owed by the run's commits vs received: ") }, "\(notes)")
        let counts = owed.dropFirst("trigger events owed by the run's commits vs received: ".count).split(separator: " ").prefix(3)
        #expect(counts.count == 3 && counts.first == counts.last && owed.contains("none lost"), "\(owed)")
        // The scenario's own checks, judged against the server (the profiles that declare them).
        let checks = (report["checks"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String != "sometimes" }
        #expect(checks.allSatisfy { $0["status"] as? String == "passed" }, "\(checks)")
        #expect(!checks.isEmpty)
        let markdown = try String(contentsOf: folder.appendingPathComponent("\(scenario)/\(runId)/report.md"), encoding: .utf8)
        #expect(markdown.contains("- backend: Firestore emulator at 127.0.0.1:"))
    }

    /// The planted double booking (`seat-random-id`) under the same load on both backends: the
    /// scenario's own check fails on each, and the verdicts agree.
    @Test func compareRunsTheWorkloadOnBothBackendsSideBySide() throws {
        let folder = try LoadCommandTests.freshFolder()
        let result = try CommandLineRunner.run([
            "compare", "seat-contention", "--backend", "emulator", "--variant", "seat-random-id", "--rate", "20/s", "--duration", "4s", "--report-dir", folder.path,
        ])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("the simulated Firebase (virtual time, seed 1) vs Firestore emulator at 127.0.0.1:"))
        #expect(result.standardOutput.contains("baseline  seat-contention-load-virtual-constant-arrival-rate-20ps-seat-random-id: FAIL"))
        #expect(result.standardOutput.contains("candidate seat-contention-load-emulator-constant-arrival-rate-20ps-seat-random-id: FAIL"))
        #expect(result.standardOutput.contains("  check no-seat-double-booked: violated → violated"))
        #expect(result.standardOutput.contains("reserveSeat.p99: "))
        #expect(result.standardOutput.contains("verdicts equal: FAIL on both"))
        let virtual = try LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-virtual-constant-arrival-rate-20ps-seat-random-id")
        #expect((virtual["load"] as? [String: Any])?["server"] == nil)
    }

    @Test(arguments: [
        (["--backend", "nowhere"], "--backend nowhere: one of simulated, emulator[=HOST:PORT]"),
        (["--backend", "emulator", "--virtual"], "--virtual runs on the simulator"),
        (["--backend", "emulator=10.0.0.1:8080", "--functions-port", "9"], "HOST:PORT with a loopback host"),
        (["--backend", "emulator=127.0.0.1:8080"], "needs --functions-port"),
        (["--functions-port", "9000"], "--functions-port belongs to --backend emulator"),
        (["--backend", "emulator", "--functions-port", "70000"], "--functions-port 70000: a port from 1 to 65535"),
        (["--backend", "firestore"], "--backend firestore needs --project P"),
        (["--project", "my-staging"], "--project belongs to --backend firestore"),
        (["--backend", "emulator", "--project", "my-staging"], "--project belongs to --backend firestore"),
        (["--backend", "firestore", "--project", "my-staging", "--functions-port", "9"], "--functions-port belongs to --backend emulator"),
        (["--backend", "firestore=127.0.0.1:8080", "--project", "my-staging"], "--backend firestore takes no address"),
        (["--backend", "firestore", "--project", "X"], "a project id is 6 to 30 lowercase letters"),
    ])
    func aWrongBackendIsOneLineAndExitTwo(arguments: [String], expected: String) throws {
        let result = try CommandLineRunner.run(["load", "seat-contention", "--rate", "5/s", "--duration", "1s"] + arguments)
        #expect(result.status == 2, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardError.contains(expected), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(!result.standardOutput.contains("PASS"))
    }

    @Test func aProfileWithoutRealModeIsRefused() throws {
        let result = try CommandLineRunner.run(["load", "media-uploads", "--backend", "emulator", "--rate", "5/s", "--duration", "1s"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("does not run on a real server yet; these do: auction-race"), "\(result.standardError)")
    }

    /// The emulator dies 12 s into a two-minute run: the run stops there (it does not wait out the
    /// duration), exits 3, and keeps a report marked incomplete whose figures end at the stop.
    @Test func aServerThatDiesMidRunStopsTheRunWithAnIncompleteReport() throws {
        let folder = try LoadCommandTests.freshFolder()
        let (result, port) = try Self.loadUntilTheEmulatorDies(reportDir: folder.path)
        #expect(result.status == 3, "\(result.output) \(result.error)")
        #expect(result.output.contains("INCOMPLETE seat-contention-load-emulator-constant-arrival-rate-10ps: Firestore emulator at 127.0.0.1:\(port)"), "\(result.output)")
        #expect(result.output.contains("stopped answering"), "\(result.output)")
        let report = try LoadCommandTests.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-emulator-constant-arrival-rate-10ps")
        #expect((report["failure"] as? [String: Any])?["kind"] as? String == "server")
        let loadSummary = try #require(report["load"] as? [String: Any])
        let stopped = try #require(loadSummary["stoppedEarlyNanoseconds"] as? Int)
        #expect(stopped < 60_000_000_000, "stopped \(stopped) ns into a 120 s run")
        #expect((loadSummary["iterationsStarted"] as? Int ?? .max) < 600)
        let markdown = try String(contentsOf: folder.appendingPathComponent("seat-contention/seat-contention-load-emulator-constant-arrival-rate-10ps/report.md"), encoding: .utf8)
        #expect(markdown.contains("- **incomplete**: the server stopped answering"))
    }

    /// Runs a two-minute seat-contention load against an emulator this test starts, and kills the
    /// emulator 12 s in; returns what `rehearse` answered and the emulator's port.
    static func loadUntilTheEmulatorDies(reportDir: String) throws -> (ChildProcess.Result, Int) {
        let launcher = try #require(firestoreEmulatorLauncher)
        let (port, functionsPort) = try (freePort(), freePort())
        // setsid: the launcher and its Java share a new process group, killed together below.
        let emulator = try ChildProcess("/usr/bin/setsid", [launcher, "start", "--host=127.0.0.1", "--port=\(port)", "--functions_emulator=127.0.0.1:\(functionsPort)"],
                                        standardOutput: .discard, standardError: .discard)
        defer { _ = kill(-emulator.pid, SIGKILL); _ = emulator.wait(timeLimit: 10) }
        try waitUntilAnswering(port: port)
        let load = try ChildProcess(CommandLineRunner.binary.path, [
            "load", "seat-contention", "--backend", "emulator=127.0.0.1:\(port)", "--functions-port", "\(functionsPort)",
            "--rate", "10/s", "--duration", "120s", "--report-dir", reportDir,
        ])
        sleep(12)
        _ = kill(-emulator.pid, SIGKILL)
        return (load.wait(timeLimit: CommandLineRunner.hangLimit), port)
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let free = try ListeningPort.open()
        defer { free.close() }
        return free.port
    }

    /// Polls `127.0.0.1:port` until the emulator's root page answers `Ok` (at most 180 s): a port
    /// that accepts connections is not yet an emulator that serves requests.
    static func waitUntilAnswering(port: Int) throws {
        for _ in 0..<900 {
            if rootPage(port: port).contains("\r\n\r\nOk") { return }
            usleep(200_000)
        }
        Issue.record("the emulator on port \(port) never answered")
    }

    /// `GET /` on `127.0.0.1:port`, the raw answer ("" when nothing answers).
    private static func rootPage(port: Int) -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "" }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return "" }
        var answer: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func anEmulatorThatIsNotThereIsOneLine() throws {
        // Port 1 on loopback: nothing listens there (the trigger host takes a free port of its own).
        let free = try ListeningPort.open()
        let port = free.port
        free.close()
        let result = try CommandLineRunner.run([
            "load", "seat-contention", "--backend", "emulator=127.0.0.1:1", "--functions-port", "\(port)", "--rate", "5/s", "--duration", "1s",
        ])
        #expect(result.status == 2, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardError.contains("no Firestore emulator answers at 127.0.0.1:1"), "\(result.standardError)")
    }

    @Test func aFunctionsPortInUseIsOneLine() throws {
        let taken = try ListeningPort.open()
        defer { taken.close() }
        let result = try CommandLineRunner.run([
            "load", "seat-contention", "--backend", "emulator", "--functions-port", "\(taken.port)", "--rate", "5/s", "--duration", "1s",
        ])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("the trigger host: cannot listen on 127.0.0.1:\(taken.port)"), "\(result.standardError)")
    }
}

/// A loopback port this process listens on (a port in use for another process).
struct ListeningPort {
    let descriptor: Int32
    let port: Int

    static func open() throws -> ListeningPort {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard descriptor >= 0, bound == 0, listen(descriptor, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return ListeningPort(descriptor: descriptor, port: Int(UInt16(bigEndian: address.sin_port)))
    }

    func close() { _ = Glibc.close(descriptor) }
}
