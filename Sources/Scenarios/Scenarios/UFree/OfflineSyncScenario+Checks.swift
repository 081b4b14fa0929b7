import FirebaseHarness
import Harness
import SimulatedFirebase

extension OfflineSyncScenario {
    /// The checks this scenario makes, as values: call sites name them.
    enum Check {
        static let newestEditWins = CheckDeclaration(
            .eventually, "newest-edit-wins", "once every device has synced, the server holds each day's newest edit (of all the user's devices)", operations: ["edit"])
        static let cachesMatchServer = CheckDeclaration(
            .eventually, "caches-match-server", "once every device is online and quiescent, each device's cache equals the server (no rejected write survives)", operations: ["edit"])
        static let uiShowsRealStates = CheckDeclaration(
            .always, "ui-shows-real-states", "a device only ever shows its own edits or states the server held", operations: ["edit"])
        static let offlineWriteRejected = CheckDeclaration(
            .sometimes, "offline-write-rejected", "a write queued offline was rejected as older than the server's day and rolled back",
            requires: [.atLeast(Parameter.offlinePercent, 1)])
    }
}
