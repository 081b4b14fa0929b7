#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A one-line progress bar on standard error, drawn only when it is a terminal and not `--quiet`;
/// safe to update from worker threads.
package final class ProgressBar: Sendable {
    private let total: Int
    private let label: String
    private let enabled: Bool
    private let lastDrawn = Mutex<Int>(-1)

    package init(total: Int, label: String, quiet: Bool) {
        self.total = max(1, total)
        self.label = label
        self.enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Redraws when the percentage changed.
    package func update(_ completed: Int) {
        guard enabled else { return }
        let percent = min(100, completed * 100 / total)
        let shouldDraw = lastDrawn.withLock { last -> Bool in
            guard percent != last else { return false }
            last = percent
            return true
        }
        guard shouldDraw else { return }
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardError.write("\r\(label) [\(bar)] \(percent)% (\(completed)/\(total))")
    }

    /// Clears the line.
    package func finish() {
        guard enabled else { return }
        StandardError.write("\r\u{1B}[2K")
    }
}
