import Foundation
import Sim

/// The build fingerprint of this binary: the git commit of the source tree it was built in
/// (looked up once, at run time, next to this file's build-time path, so a binary older than the
/// tree names the tree's commit) and the executable's build ID, which identifies the binary itself.
package enum Fingerprint {
    package static let current = BuildFingerprint(commit: gitCommit())

    private static func gitCommit() -> String {
        if let fromEnvironment = ProcessInfo.processInfo.environment["REHEARSAL_COMMIT"] { return fromEnvironment }
        let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        guard let head = run(["git", "-C", sourceDirectory, "rev-parse", "--short=12", "HEAD"]) else { return "unknown" }
        let dirty = run(["git", "-C", sourceDirectory, "status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? head + "-dirty" : head
    }

    private static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
