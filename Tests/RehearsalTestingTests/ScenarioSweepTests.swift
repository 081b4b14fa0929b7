import Harness
import RehearsalTesting
import Sim
import Synchronization
import Testing

@Suite struct ScenarioSweepTests {
    @Test func aUsersScenarioRunsThroughTheRunnerWithChecksAndLatency() throws {
        try ScenarioRegistry.register([TicketSaleScenario()])
        let report = try ScenarioRunner.run(RunRequest(scenario: "ticket-sale", seed: 1, strategy: .nonpreemptive, parameters: ["buyers": 1])).report
        #expect(report.passed)
        #expect(report.checks.map(\.name) == ["no-oversell", "sold-out"])
        #expect(report.latency.first?.operation == "buy")
        // A test process has no program listing the user's scenario: the line says so, never `rehearse`.
        #expect(report.replayCommand.hasPrefix("<your Rehearse.main executable> run ticket-sale --seed 1"), "\(report.replayCommand)")
        #expect(ScenarioRegistry.all.contains { $0.name == "ticket-sale" } && !ScenarioRegistry.catalog.contains { $0.name == "ticket-sale" })
    }

    @Test func theSweepFindsTheOversellShrinksBuyersAndPrintsAReplayCall() throws {
        var found: RehearsalFailure?
        withKnownIssue {
            found = Rehearsal.sweep(TicketSaleScenario(), seeds: 0..<30)
        } matching: { issue in issue.comments.contains { $0.rawValue.contains("no-oversell") } }
        let failure = try #require(found)
        #expect(failure.message.contains("sold 2 tickets of 1"))
        // Shrunk to the two buyers the race needs, written as an artifact the replay call reads.
        #expect(failure.parameters["buyers"] == 2)
        let artifact = try #require(failure.artifact)
        #expect(artifact.hasPrefix("reports/ticket-sale/failures/") && artifact.hasSuffix(".shrunk.json"))
        #expect(failure.replayCall == "Rehearsal.replay(TicketSaleScenario(), artifact: \"\(artifact)\")")
        // No program lists a scenario only this test registered: no command line is printed for it.
        #expect(failure.replayCommand == nil)
        #expect(failure.description.contains("no program lists this scenario"))
        #expect(failure.build == Rehearsal.currentBuild)

        var replayed: RunReport?
        withKnownIssue {
            replayed = Rehearsal.replay(TicketSaleScenario(), artifact: artifact)
        } matching: { $0.comments.contains { $0.rawValue.contains("no-oversell") } }
        let report = try #require(replayed)
        #expect(report.violation?.check == "no-oversell")
        #expect(report.parameters["buyers"] == 2)
    }

    /// The command line and the Swift call a failure prints replay the same shrunk run: both read
    /// its artifact, and that artifact's run is the shrunk one (its violation, step and trace).
    @Test func theCommandLineAndTheSwiftCallReplayTheSameShrunkFailure() throws {
        let failure = try #require(Rehearsal.expectFailure(TicketSaleScenario(), seeds: 0..<30, executable: "tickets", matching: { $0.message.contains("sold 2") }))
        let path = try #require(failure.artifact)
        #expect(failure.replayCommand == "tickets replay \(path)")
        #expect(failure.description.contains("in Swift: Rehearsal.replay(TicketSaleScenario(), artifact: \"\(path)\")"))
        #expect(failure.description.contains("or from the command line: tickets replay \(path)"))
        let recorded = try #require(try FailureArtifact.decode(try InputFile.read(path), path: path))
        #expect(recorded.shrink != nil && recorded.parameters["buyers"] == 2 && recorded.decisions == failure.decisions)
        // What `tickets replay` runs (the CLI's path) and what the Swift call runs.
        let command = try ScenarioRunner.execute(try recorded.replayRequest(gitCommit: nil)).report
        var swift: RunReport?
        withKnownIssue { swift = Rehearsal.replay(TicketSaleScenario(), artifact: path) }
        let call = try #require(swift)
        #expect(command.violation == recorded.violation && call.violation == recorded.violation)
        #expect(command.traceHash == recorded.traceHash && call.traceHash == recorded.traceHash)
    }

    @Test func aReplayOfAnotherScenariosArtifactIsBadInput() throws {
        let failure = try #require(Rehearsal.expectFailure(TicketSaleScenario(), seeds: 0..<30, matching: { $0.message.contains("sold 2") }))
        let path = try #require(failure.artifact)
        withKnownIssue {
            _ = Rehearsal.replay(RenamedScenario(name: "other-sale"), artifact: path)
        } matching: { $0.comments.contains { $0.rawValue.contains("records scenario ticket-sale, not other-sale") } }
        withKnownIssue {
            _ = Rehearsal.replay(TicketSaleScenario(), artifact: "reports/none/missing.json")
        } matching: { $0.comments.contains { $0.rawValue.contains("missing.json") && $0.rawValue.contains("working directory") } }
    }

    @Test func expectFailureNamesTheUsersExecutableInTheCommandLine() throws {
        let failure = Rehearsal.expectFailure(TicketSaleScenario(), seeds: 0..<30, executable: "tickets", matching: { $0.message.contains("sold 2") })
        let found = try #require(failure)
        let command = try #require(found.replayCommand)
        #expect(command.hasPrefix("tickets replay reports/ticket-sale/failures/"), "\(command)")
    }

    @Test func withoutAnArtifactFolderTheFailurePrintsTheSelfContainedCall() throws {
        let options = SweepOptions(artifactFolder: nil)
        let failure = try #require(Rehearsal.expectFailure(TicketSaleScenario(), seeds: 0..<30, options: options, executable: "tickets", matching: { $0.message.contains("sold 2") }))
        #expect(failure.artifact == nil && failure.replayCommand == nil)
        #expect(failure.replayCall.hasPrefix("Rehearsal.replay(TicketSaleScenario(), seed: \(failure.seed), strategy: \"\(failure.strategy)\", parameters: [\"buyers\": 2], decisions: ["))
        var replayed: RunReport?
        withKnownIssue {
            replayed = Rehearsal.replay(
                TicketSaleScenario(), seed: failure.seed, strategy: failure.strategy, parameters: ["buyers": 2], decisions: failure.decisions)
        }
        #expect(try #require(replayed).violation?.check == "no-oversell")
    }

    @Test func expectFailureFailsWhenTheScenarioPasses() {
        withKnownIssue("one buyer cannot oversell") {
            _ = Rehearsal.expectFailure(TicketSaleScenario(), seeds: 0..<5, parameters: ["buyers": 1])
        } matching: { $0.comments.contains { $0.rawValue.contains("expected a failure, but all 15 runs passed") } }
    }

    @Test func aScenarioThatRunsDifferentlyTwiceIsReported() throws {
        var found: RehearsalFailure?
        withKnownIssue("the sampled seed runs twice and differs") {
            found = Rehearsal.sweep(DriftingScenario(), seeds: 0..<20, options: .randomOnly)
        } matching: { $0.comments.contains { $0.rawValue.contains("nondeterministic") } }
        #expect(try #require(found).message.contains("ran differently twice"))
    }

    @Test func aCatalogNameCannotBeRegisteredAgain() {
        // Tests run side by side in one process: the stand-in catalog is set only if none is, in
        // one step, so it never replaces the built-in catalog (which also names auction-race).
        ScenarioRegistry.registerCatalogIfEmpty([RenamedScenario(name: "auction-race")])
        #expect(throws: ScenarioError.duplicateScenario("auction-race")) {
            try ScenarioRegistry.register([RenamedScenario(name: "auction-race")])
        }
        #expect(throws: ScenarioError.malformedScenarioName("Bad Name")) {
            try ScenarioRegistry.register([RenamedScenario(name: "Bad Name")])
        }
    }
}

/// A scenario that does nothing, under any name.
struct RenamedScenario: Scenario {
    let name: String
    let summary = "nothing"
    let parameters: [ScenarioParameter] = []
    let operations: [String] = []
    let variants: [String] = []
    let checks: [CheckDeclaration] = []
    let usesBackend = false
    func run(_ context: ScenarioContext) async throws {}
}

/// A scenario whose number of steps depends on how often it ran before (state outside the run).
struct DriftingScenario: Scenario {
    static let runs = Mutex(0)
    let name = "drifting"
    let summary = "yields once per earlier run"
    let parameters: [ScenarioParameter] = []
    let operations: [String] = []
    let variants: [String] = []
    let checks: [CheckDeclaration] = []
    let usesBackend = false
    func run(_ context: ScenarioContext) async throws {
        let count = Self.runs.withLock { value in value += 1; return value }
        for _ in 0..<(count % 3) { await Task.yield() }
    }
}
