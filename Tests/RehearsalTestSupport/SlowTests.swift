import Foundation
import Testing

extension Tag {
    /// Takes more than a few seconds on a 2-core machine (many seeds, large sizes, whole sweeps).
    @Tag public static var slow: Self
    /// Starts many child processes (the CLI, sweeps across workers, a browser).
    @Tag public static var subprocess: Self
}

/// Whether the slow and subprocess-heavy tests run: `REHEARSAL_SLOW_TESTS=1` in the environment
/// (`.ci/run` sets it). The default `swift test` skips them, so it stays fast on a 2-core machine.
public let slowTestsEnabled = ProcessInfo.processInfo.environment["REHEARSAL_SLOW_TESTS"] == "1"

extension Trait where Self == ConditionTrait {
    /// Runs only with `REHEARSAL_SLOW_TESTS=1` (`.ci/run` sets it); tag the test `.slow` or `.subprocess` too.
    public static var ciOnly: Self {
        .enabled(if: slowTestsEnabled, "slow or subprocess-heavy: runs with REHEARSAL_SLOW_TESTS=1 (.ci/run sets it)")
    }
}
