import Foundation
import FirestoreREST
import Harness
import RehearseCLI
import SimulatedFirebase
import Synchronization

// WALL CLOCK, SOCKETS AND CHILD PROCESSES ON PURPOSE: this section measures a real server.

extension BenchCommand {
    /// The load generator is never the bottleneck: the Firestore emulator's saturation throughput
    /// for one document write (a REST PATCH per request) under wrk (2 threads × 16 connections)
    /// and under `rehearse load`'s own open-model generator at rising rates, in one run on this
    /// machine (generator and emulator share its cores). The target: Rehearsal's best throughput
    /// at least 90 % of wrk's.
    func runServerWrites() throws -> [String] {
        print("== server-writes: one document PATCH per request to the Firestore emulator, wrk vs rehearse load's generator")
        guard let wrk = Self.executable("wrk") else {
            print("wrk is not installed (Debian package wrk): section skipped")
            return []
        }
        let emulator = try blockingStart()
        defer { emulator.stop() }
        let script = NSTemporaryDirectory() + "rehearse-bench-patch-\(getpid()).lua"
        try Self.patchScript.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        // The emulator's JIT warms up for tens of seconds (measured: 110, 445, 910 … 2,681 writes/s
        // in ten 4 s runs): wrk for at least six runs and until a run gains less than 10 % on the
        // one before, at most 90 s.
        var warm: [Double] = []
        let warmUntil = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < warmUntil, let run = Self.runWrk(wrk, script: script, address: emulator.address, seconds: 4) {
            warm.append(run.throughput)
            if warm.count >= 6, run.throughput < warm[warm.count - 2] * 1.1 { break }
        }
        print("warm-up (wrk, 4 s each): \(warm.map { String(format: "%.0f", $0) }.joined(separator: ", ")) writes/s")
        let wrkCPUStart = Self.cpuMicroseconds(RUSAGE_CHILDREN.rawValue)
        guard let before = Self.runWrk(wrk, script: script, address: emulator.address, seconds: 5) else {
            print("wrk printed no Requests/sec: section skipped")
            return []
        }
        let wrkCPU = Double(Self.cpuMicroseconds(RUSAGE_CHILDREN.rawValue) - wrkCPUStart) / max(1, before.throughput * 5)
        print(String(format: "wrk -t2 -c16 5 s: %.0f writes/s, p50 %@, p99 %@; wrk's CPU %.0f µs per write", before.throughput, before.p50, before.p99, wrkCPU))
        print("rehearse load (open model, max-vus 64, 3 s per rate):")
        print("rate/s | completed/s | p50      | p99      | dropped")
        let client = FirestoreRESTClient(baseURL: emulator.baseURL, project: "bench-rehearse")
        var best = 0.0
        var generatorCPU = 0.0
        var rate = 500.0
        while rate <= 20_000 {
            let cpuStart = Self.cpuMicroseconds(RUSAGE_SELF.rawValue)
            let report = Self.generatorRun(rate: rate, client: client)
            let throughput = report.load?.throughputPerSecond ?? 0
            if throughput > best { generatorCPU = Double(Self.cpuMicroseconds(RUSAGE_SELF.rawValue) - cpuStart) / Double(max(1, report.load?.iterationsCompleted ?? 1)) }
            best = max(best, throughput)
            let write = report.latency.first { $0.operation == "write" }
            print(String(format: "%6.0f | %11.0f | %@ | %@ | %d", rate, throughput,
                         Self.pad(ReportFormat.duration(write?.p50Nanoseconds ?? 0), 8), Self.pad(ReportFormat.duration(write?.p99Nanoseconds ?? 0), 8),
                         report.load?.droppedIterations ?? 0))
            if throughput < rate * 0.8 { break }  // saturated: a higher rate only queues
            rate *= 1.5
        }
        // wrk again: the emulator may still have sped up (or slowed) during the sweep; the larger counts.
        let after = Self.runWrk(wrk, script: script, address: emulator.address, seconds: 5)
        let reference = (throughput: max(before.throughput, after?.throughput ?? 0), p50: before.p50, p99: before.p99)
        print(String(format: "wrk again: %.0f writes/s", after?.throughput ?? 0))
        print(String(format: "CPU per write at the best rate: rehearse %.0f µs, wrk %.0f µs (the emulator runs on the same cores)", generatorCPU, wrkCPU))
        let ratio = best / reference.throughput
        let met = ratio >= 0.9
        print(String(format: "generator vs wrk: %.0f / %.0f writes/s = %.2f (target ≥ 0.90): %@", best, reference.throughput, ratio, met ? "met" : "MISSED"))
        return met ? [] : [String(format: "server-writes: generator at %.2f of wrk", ratio)]
    }

    /// User and system CPU of `who` (this process, or its waited-for children) so far, in µs.
    static func cpuMicroseconds(_ who: Int32) -> Int64 {
        var usage = rusage()
        getrusage(__rusage_who_t(who), &usage)
        return Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    /// A wrk script: PATCH a new document of `w` (per thread and request) with one integer field, as the owner.
    static let patchScript = """
        counter = 0
        local threads = 0
        function setup(thread) threads = threads + 1; thread:set("tid", threads) end
        request = function()
          counter = counter + 1
          local path = "/v1/projects/bench-wrk/databases/(default)/documents/w/t" .. tid .. "-" .. counter
          return wrk.format("PATCH", path, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer owner"}, '{"fields":{"n":{"integerValue":"1"}}}')
        end
        """

    /// One wrk run: throughput and its p50/p99 lines (nil when it printed none).
    static func runWrk(_ wrk: String, script: String, address: String, seconds: Int) -> (throughput: Double, p50: String, p99: String)? {
        let output = Self.capture(wrk, ["-t2", "-c16", "-d\(seconds)s", "--latency", "-s", script, "http://\(address)"])
        func value(after label: String) -> String? {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? "" }
        }
        guard let rate = value(after: "Requests/sec:").flatMap(Double.init) else { return nil }
        return (rate, value(after: "50%") ?? "?", value(after: "99%") ?? "?")
    }

    /// `rehearse load`'s generator at `rate` for 3 s: each iteration one PATCH through the REST
    /// client the real-server backend uses.
    static func generatorRun(rate: Double, client: FirestoreRESTClient) -> RunReport {
        let env = DomainEnvironment.realRuntime(seed: 1, epochUnixNanoseconds: 0)
        let profile = LoadProfile(scenario: "server-writes", summary: "one document write per iteration", operations: ["write"], users: 1, timingWindowNanoseconds: 0) { _ in
            let clock = env.clock
            let workload = LoadProfile.Workload { index, _, recorder in
                let written: Timestamp?? = try? await client.commit([RESTWrite(path: DocumentPath("w", "r\(Int(rate))-\(index)"), fields: ["n": .int(1)])])
                recorder.record("write", failed: written == nil)
            }
            return LoadProfile.World(
                workload: workload, clock: RunClock(elapsedNanoseconds: { clock.elapsedNanoseconds }, sleep: { try await clock.sleep(for: $0) }),
                taskExecutor: nil, participants: [])
        }
        let request = LoadRequest(scenario: "server-writes", executor: .constantArrivalRate(rate: rate, duration: .seconds(3)), maxVUs: 64, gracefulStop: .seconds(10))
        let result = Mutex<RunReport?>(nil)
        BlockingWait.run {
            let report = await LoadRunner.runWall(request, profile: profile)
            result.withLock { $0 = report }
        }
        return result.withLock { $0! }
    }

    /// Starts the emulator, waiting for it from this synchronous command.
    private func blockingStart() throws -> FirestoreEmulator {
        let started = Mutex<Result<FirestoreEmulator, EmulatorError>?>(nil)
        BlockingWait.run {
            do throws(EmulatorError) {
                let emulator = try await FirestoreEmulator.start()
                started.withLock { $0 = .success(emulator) }
            } catch {
                started.withLock { $0 = .failure(error) }
            }
        }
        return try started.withLock { $0! }.get()
    }

    /// The full path of `name` on PATH, if executable.
    static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `path` with `arguments` and returns its standard output.
    static func capture(_ path: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
