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

/// Where the Firestore emulator's launcher is installed, or nil (Debian package
/// `google-cloud-cli-firestore-emulator`; `FIRESTORE_EMULATOR_LAUNCHER` overrides).
public let firestoreEmulatorLauncher: String? = {
    let environment = ProcessInfo.processInfo.environment
    let candidates = [environment["FIRESTORE_EMULATOR_LAUNCHER"]].compactMap { $0 }
        + ["/usr/lib/google-cloud-sdk", "/usr/share/google-cloud-sdk", "/opt/google-cloud-sdk"].map { "\($0)/platform/cloud-firestore-emulator/cloud_firestore_emulator" }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

extension Trait where Self == ConditionTrait {
    /// Runs where Google's Firestore emulator is installed; skipped with one line naming the
    /// package elsewhere, except under `.ci/run` (`CI=true` or `REHEARSAL_SLOW_TESTS=1`), where its
    /// absence is a failure: the test runs and cannot start it.
    public static var needsFirestoreEmulator: Self {
        .enabled(if: firestoreEmulatorLauncher != nil || slowTestsEnabled || ProcessInfo.processInfo.environment["CI"] == "true",
                 "needs the Firestore emulator: apt-get install google-cloud-cli-firestore-emulator (with Java 17)")
    }
}
