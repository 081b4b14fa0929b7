import ArgumentParser
import Conformance
import FirestoreREST
import Foundation
import RehearseCLI
import Synchronization

/// `rehearse conformance`: the differential oracle against a real Firestore. Programs drawn from
/// seeds run on the simulated Firebase and on the Firestore emulator (started here when no
/// `--emulator` is given); prints the agreement table and every shrunk mismatch. Exit 0 when every
/// mismatch is a documented divergence (docs/real-firestore.md), 1 when one is not, 2 for bad input
/// (an unreachable address, something that is not an emulator), 3 when the server died mid-run.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Hold the simulated Firestore to a real one: generated programs on both, compared.")

    @Option(parsing: .unconditional, help: "A running Firestore emulator, a loopback HOST:PORT (default: start one on a free loopback port).", transform: ArgumentValue.loopbackAddress)
    var emulator: LoopbackAddress?

    @Option(parsing: .unconditional, help: "Programs to generate and run (seeds start..<start+N).")
    var programs: Int = 500

    @Option(name: .customLong("first-seed"), parsing: .unconditional, help: "The first program's seed.")
    var firstSeed: UInt64 = 0

    @Option(parsing: .unconditional, help: "Programs in flight at once.")
    var jobs: Int = 4

    @Option(parsing: .unconditional, help: "Print at most this many shrunk mismatches.")
    var show: Int = 10

    @Flag(help: "No progress bar.")
    var quiet = false

    func validate() throws {
        try Limits.check(programs, in: Limits.conformancePrograms, option: "--programs", limit: "conformancePrograms")
        try Limits.check(jobs, in: Limits.conformanceJobs, option: "--jobs", limit: "conformanceJobs")
        guard firstSeed <= UInt64.max - UInt64(programs) else { throw ValidationError("--first-seed \(firstSeed) + --programs \(programs) overflows a seed") }
    }

    func run() throws {
        let outcome = Mutex<Result<ConformanceTable, RehearseError>?>(nil)
        let (emulator, programs, firstSeed, jobs, quiet) = (self.emulator, self.programs, self.firstSeed, self.jobs, self.quiet)
        BlockingWait.run {
            let result = await Self.sweep(emulator: emulator, programs: programs, firstSeed: firstSeed, jobs: jobs, quiet: quiet)
            outcome.withLock { $0 = result }
        }
        switch outcome.withLock({ $0 })! {
        case .failure(let error): throw error
        case .success(let table): try report(table)
        }
    }

    func report(_ table: ConformanceTable) throws {
        print(table.text)
        print(String(format: "%d programs: %.1f %% of compared steps agree; %d mismatches (%d documented, %d undocumented)",
                     table.programs, table.agreementPercent, table.mismatches.count, table.mismatches.count - table.undocumented.count, table.undocumented.count))
        let shown = table.undocumented + table.mismatches.filter { $0.known != nil }
        for mismatch in shown.prefix(show) { print("\n" + mismatch.description) }
        if !table.undocumented.isEmpty { throw RehearseError.failed("\(table.undocumented.count) undocumented divergence(s) from the real Firestore") }
    }

    /// Attaches to or starts the emulator, then runs the programs `jobs` at a time.
    static func sweep(emulator address: LoopbackAddress?, programs: Int, firstSeed: UInt64, jobs: Int, quiet: Bool) async -> Result<ConformanceTable, RehearseError> {
        let emulator: FirestoreEmulator
        do {
            if let address { emulator = try await FirestoreEmulator.attach(address.description) } else { emulator = try await FirestoreEmulator.start() }
        } catch {
            return .failure(.badInput("--emulator: \(error)"))
        }
        defer { emulator.stop() }
        if address == nil { print("started the Firestore emulator at \(emulator.address)") }
        let oracle = ConformanceOracle(client: FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-oracle"))
        let progress = ProgressBar(total: programs, label: "conformance", quiet: quiet)
        var table = ConformanceTable()
        var results: [UInt64: ConformanceOracle.Result] = [:]
        do {
            try await withThrowingTaskGroup(of: ConformanceOracle.Result.self) { group in
                var next = firstSeed
                let end = firstSeed + UInt64(programs)
                while next < end && next < firstSeed + UInt64(jobs) {
                    let seed = next
                    group.addTask { try await oracle.check(seed: seed) }
                    next += 1
                }
                while let result = try await group.next() {
                    results[result.program.seed] = result
                    progress.update(results.count)
                    if next < end {
                        let seed = next
                        group.addTask { try await oracle.check(seed: seed) }
                        next += 1
                    }
                }
            }
        } catch {
            progress.finish()
            let alive = await emulator.isAlive()
            return .failure(.infrastructure("the Firestore server failed mid-run\(alive ? "" : " and no longer answers"): \(error); nothing was judged"))
        }
        progress.finish()
        for seed in results.keys.sorted() { table.add(results[seed]!) }
        return .success(table)
    }
}
