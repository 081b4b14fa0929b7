import Harness
import Sim

/// `--junit FILE` of run, fuzz and merge: the path checked before any work, the report written last.
enum JUnitOutput {
    /// Refuses an empty path, a folder or an unusual node before the run starts (exit 2).
    static func check(_ path: String?) throws {
        guard let path else { return }
        guard !path.isEmpty else { throw InputError.fail("--junit is empty; give a file such as junit.xml") }
        guard !path.hasSuffix("/") else { throw InputError.fail("--junit \(path) names a folder, not a file") }
        do { try AtomicFile.refuseUnusualTarget(path) } catch { throw InputError.fail("--junit: \(error.description)") }
    }

    /// Writes `report` to `path` (when given) and says where.
    static func write(_ report: @autoclosure () -> JUnitReport, to path: String?, quiet: Bool = false) throws {
        guard let path else { return }
        do { try report().write(to: path) } catch { throw InputError.fail("--junit: \(error.description)") }
        if !quiet { print("junit: \(path)") }
    }
}
