import Foundation

/// Every child process this test module starts is launched through here, one launch at a time
/// across all suites (`swift test --parallel` runs them concurrently): Foundation's
/// `Process.run()` on Linux crashed in CI with a memcpy on a bad pointer when several launched at
/// once, first under `concurrentPerform` in MalformedInputTests and, after that was serialised,
/// again when another suite launched at the same moment. The children still run in parallel.
func launchSerially(_ process: Process) throws {
    processLaunchLock.lock()
    defer { processLaunchLock.unlock() }
    try process.run()
}

private let processLaunchLock = NSLock()
