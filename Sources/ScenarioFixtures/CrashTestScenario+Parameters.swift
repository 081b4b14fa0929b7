import Harness

extension CrashTestScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    enum Parameter {
        static let crashSeed = ScenarioParameter(
            "crashSeed", "the seed that traps (precondition failure)", default: 3, in: 0...1_000_000, drawn: false)
        static let failSeed = ScenarioParameter(
            "failSeed", "the seed that violates crash-test-ok", default: 5, in: 0...1_000_000, drawn: false)
        static let spinSeed = ScenarioParameter(
            "spinSeed", "the seed that spins in one job without an await (the watchdog fails it)", default: 1_000_000, in: 0...1_000_000, drawn: false)
        static let spinAll = ScenarioParameter(
            "spinAll", "1: every seed spins as spinSeed does (several stuck runs in one process)", default: 0, in: 0...1, drawn: false)
        static let noiseKilobytes = ScenarioParameter(
            "noiseKilobytes", "kilobytes written to standard error before each seed (a chatty worker)", default: 0, in: 0...4_096, drawn: false)
    }
}
