import Foundation
import Harness
import Sim

/// Test only (hidden from `rehearse list`; a fixture target in no product, registered by the
/// built-in `rehearse` executable): traps on one seed and fails a check on another, so the
/// sweep's crash isolation and failure artifacts can be tested; writes `noiseKilobytes` of lines
/// to standard error first, so a worker's chatter can be tested too; spins without an `await` on
/// `spinSeed`, so the stuck-job watchdog can be tested.
package struct CrashTestScenario: Scenario {
    package init() {}
    package let name = "crash-test"
    package let summary = "(test only) traps on crashSeed, violates a check on failSeed"
    package let parameters: [ScenarioParameter] = [
        Parameter.crashSeed,
        Parameter.failSeed,
        Parameter.noiseKilobytes,
        Parameter.spinSeed,
        Parameter.spinAll,
    ]
    package let operations: [String] = []
    package let variants: [String] = []
    package let usesBackend = false
    package let checks: [CheckDeclaration] = [
        Check.crashTestOk,
        Check.ran,
    ]

    package func run(_ context: ScenarioContext) async throws {
        let line = Data((String(repeating: "noise ", count: 170) + "123\n").utf8)
        for _ in 0..<context.parameters[Parameter.noiseKilobytes] { FileHandle.standardError.write(line) }
        try? await SimClock().sleep(for: .milliseconds(10))
        context.note("tester", "woke")
        context.sometimes(Check.ran, true)
        if context.seed == UInt64(context.parameters[Parameter.spinSeed]) || context.parameters[Parameter.spinAll] == 1 { Self.spin() }
        precondition(context.seed != UInt64(context.parameters[Parameter.crashSeed]), "crash-test: deliberate crash on seed \(context.seed)")
        context.always(Check.crashTestOk, context.seed != UInt64(context.parameters[Parameter.failSeed]), "tester saw seed \(context.seed) fail on purpose")
        try context.throwIfStopped()
    }

    /// A loop with no `await` that never ends (opaque to the optimizer).
    static func spin() {
        var counter = 0
        while true { counter = blackHole(counter &+ 1) }
    }

    @inline(never) static func blackHole(_ value: Int) -> Int { value }
}
