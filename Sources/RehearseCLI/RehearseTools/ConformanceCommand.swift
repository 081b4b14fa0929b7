import ArgumentParser
import Conformance
import FirestoreREST
import Foundation
import RehearseCLI
import RulesConformance
import Synchronization

/// `rehearse conformance`: the differential oracles against a real Firestore. Programs drawn from
/// seeds run on the simulated Firebase and on the Firestore emulator (started here when no
/// `--emulator` is given), and each app's Swift rules decide random requests that the emulator,
/// loaded with the app's rules file, decides too; prints both agreement tables and every
/// mismatch. Exit 0 when every mismatch is a documented divergence (docs/real-firestore.md), 1 when
/// one is not, 2 for bad input (an unreachable address, something that is not an emulator), 3 when
/// the server died mid-run.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Hold the simulated Firestore to a real one: generated programs and rules requests on both, compared.")

    @Option(parsing: .unconditional, help: "A running Firestore emulator, a loopback HOST:PORT (default: start one on a free loopback port).", transform: ArgumentValue.loopbackAddress)
    var emulator: LoopbackAddress?

    @Option(parsing: .unconditional, help: "Programs to generate and run (seeds start..<start+N; 0: none).")
    var programs: Int = 500

    @Option(name: .customLong("first-seed"), parsing: .unconditional, help: "The first program's seed.")
    var firstSeed: UInt64 = 0

    @Option(name: .customLong("rules-requests"), parsing: .unconditional, help: "Rules requests per app (\(RulesRun.requestsPerProgram) per program; 0: none).")
    var rulesRequests: Int = 1_000

    @Option(name: .customLong("rules-first-seed"), parsing: .unconditional, help: "The first rules program's seed.")
    var rulesFirstSeed: UInt64 = 0

    @Option(parsing: .unconditional, help: "Apps whose rules are compared, comma-separated (default: every app, and ufree-seed: UFree's seed rules taken literally).", transform: ArgumentValue.rulesWorlds)
    var apps: [RulesWorld] = RulesWorld.all

    @Option(parsing: .unconditional, help: "Programs in flight at once.")
    var jobs: Int = 4

    @Option(parsing: .unconditional, help: "Print at most this many mismatches of each oracle.")
    var show: Int = 10

    @Flag(help: "No progress bar.")
    var quiet = false

    func validate() throws {
        try Limits.check(programs, in: Limits.conformancePrograms, option: "--programs", limit: "conformancePrograms")
        try Limits.check(rulesRequests, in: Limits.conformanceRulesRequests, option: "--rules-requests", limit: "conformanceRulesRequests")
        try Limits.check(jobs, in: Limits.conformanceJobs, option: "--jobs", limit: "conformanceJobs")
        guard firstSeed <= UInt64.max - UInt64(programs) else { throw ValidationError("--first-seed \(firstSeed) + --programs \(programs) overflows a seed") }
        guard rulesFirstSeed <= UInt64.max - UInt64(rulesRequests) else {
            throw ValidationError("--rules-first-seed \(rulesFirstSeed) + --rules-requests \(rulesRequests) overflows a seed")
        }
        guard programs > 0 || (rulesRequests > 0 && !apps.isEmpty) else { throw ValidationError("nothing to compare: --programs 0 and no rules requests") }
    }

    func run() throws {
        let outcome = Mutex<Result<(ConformanceTable, RulesTable), RehearseError>?>(nil)
        let plan = RulesRun(worlds: apps, requests: rulesRequests, firstSeed: rulesFirstSeed)
        let (emulator, programs, firstSeed, jobs, quiet) = (self.emulator, self.programs, self.firstSeed, self.jobs, self.quiet)
        BlockingWait.run {
            let result = await Self.sweep(emulator: emulator, programs: programs, firstSeed: firstSeed, rules: plan, jobs: jobs, quiet: quiet)
            outcome.withLock { $0 = result }
        }
        switch outcome.withLock({ $0 })! {
        case .failure(let error): throw error
        case .success(let (table, rules)): try report(table, rules)
        }
    }

    func report(_ table: ConformanceTable, _ rules: RulesTable) throws {
        if programs > 0 {
            print(table.text)
            print(String(format: "%d programs: %.1f %% of compared steps agree; %d mismatches (%d documented, %d undocumented)",
                         table.programs, table.agreementPercent, table.mismatches.count, table.mismatches.count - table.undocumented.count, table.undocumented.count))
            let shown = table.undocumented + table.mismatches.filter { $0.known != nil }
            for mismatch in shown.prefix(show) { print("\n" + mismatch.description) }
        }
        if rules.programs > 0 {
            print("\n" + rules.text)
            let counts = apps.map { "\($0.app) \(rules.requests($0.app))" }.joined(separator: ", ")
            print("rules requests: \(counts); \(rules.mismatches.count) mismatches (\(rules.mismatches.count - rules.undocumented.count) documented, \(rules.undocumented.count) undocumented)")
            let shown = rules.undocumented + rules.mismatches.filter { $0.known != nil }
            for mismatch in shown.prefix(show) { print("\n" + mismatch.description) }
        }
        let undocumented = table.undocumented.count + rules.undocumented.count
        if undocumented > 0 { throw RehearseError.failed("\(undocumented) undocumented divergence(s) from the real Firestore") }
    }

    /// Attaches to or starts the emulator, then runs the programs and the rules programs `jobs` at a time.
    static func sweep(emulator address: LoopbackAddress?, programs: Int, firstSeed: UInt64, rules: RulesRun, jobs: Int, quiet: Bool) async
        -> Result<(ConformanceTable, RulesTable), RehearseError>
    {
        let emulator: FirestoreEmulator
        do {
            if let address { emulator = try await FirestoreEmulator.attach(address.description) } else { emulator = try await FirestoreEmulator.start() }
        } catch {
            return .failure(.badInput("--emulator: \(error)"))
        }
        defer { emulator.stop() }
        if address == nil { print("started the Firestore emulator at \(emulator.address)") }
        let client = FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-oracle")
        let oracle = ConformanceOracle(client: client), rulesOracle = RulesOracle(client: client)
        let seeds = (0..<programs).map { firstSeed + UInt64($0) }
        let progress = ProgressBar(total: programs + rules.programs.count, label: "conformance", quiet: quiet)
        do {
            let results = try await inFlight(seeds, jobs: jobs, progress: progress) { try await oracle.check(seed: $0) }
            let rulesResults = try await inFlight(rules.programs, jobs: jobs, progress: progress, done: programs) {
                try await rulesOracle.check($0.world, seed: $0.seed, requests: $0.requests)
            }
            progress.finish()
            var table = ConformanceTable(), rulesTable = RulesTable()
            for result in results { table.add(result) }
            for result in rulesResults { rulesTable.add(result) }
            return .success((table, rulesTable))
        } catch {
            progress.finish()
            let alive = await emulator.isAlive()
            return .failure(.infrastructure("the Firestore server failed mid-run\(alive ? "" : " and no longer answers"): \(error); nothing was judged"))
        }
    }

    /// `work` on every item, `jobs` at a time; the results in the items' order.
    static func inFlight<Item: Sendable, Output: Sendable>(
        _ items: [Item], jobs: Int, progress: ProgressBar, done: Int = 0, _ work: @escaping @Sendable (Item) async throws -> Output
    ) async throws -> [Output] {
        var results = [Output?](repeating: nil, count: items.count)
        try await withThrowingTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            while next < items.count && next < jobs {
                let (index, item) = (next, items[next])
                group.addTask { (index, try await work(item)) }
                next += 1
            }
            var finished = 0
            while let (index, output) = try await group.next() {
                results[index] = output
                finished += 1
                progress.update(done + finished)
                if next < items.count {
                    let (index, item) = (next, items[next])
                    group.addTask { (index, try await work(item)) }
                    next += 1
                }
            }
        }
        return results.map { $0! }
    }
}
