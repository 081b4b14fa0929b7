#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Removes the temporary files a killed writer left behind. `AtomicFile` names its temporary
/// files `.<target>.tmp-<pid>-<serial>` beside the target; a process killed with SIGKILL between
/// creating one and renaming it cannot remove it. Before the first write into a folder, each
/// process removes the ones whose writer process no longer exists (`kill(pid, 0)` says ESRCH).
/// A live writer's file is never touched (a reused pid only delays the clean-up); writers in
/// another PID namespace sharing the folder are not supported.
package enum StaleTemporaryFiles {
    /// Folders already cleaned by this process (one scan per folder, not one per write).
    private static let cleaned = Mutex<Set<String>>([])

    /// Cleans the folder of `path` once per process; returns the names removed.
    @discardableResult
    package static func clean(beside path: String) -> [String] {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard cleaned.withLock({ $0.insert(directory).inserted }) else { return [] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = writer(of: name), pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            if unlink("\(directory)/\(name)") == 0 { removed.append(name) }
        }
        return removed
    }

    /// The writer's pid of an `AtomicFile` temporary name (`.report.json.tmp-4242-7`), else nil.
    static func writer(of name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards), marker.lowerBound > name.index(after: name.startIndex) else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) else { return nil }
        return pid
    }
}
