import Harness

extension CrashTestScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let crashTestOk = CheckDeclaration(
            .always, "crash-test-ok", "holds except on failSeed")
        static let ran = CheckDeclaration(
            .sometimes, "ran", "a seed ran")
    }
}
