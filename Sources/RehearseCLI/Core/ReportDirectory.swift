#if canImport(Glibc)
import Glibc
#endif
import Sim

/// Checks a `--report-dir` before any work is done (a load test or a sweep must not run for
/// minutes and then fail to write): empty, or an existing path that is not a folder, is bad input.
enum ReportDirectory {
    static func check(_ path: String, option: String = "--report-dir") throws {
        guard !path.isEmpty else { throw InputError.fail("\(option) is empty; give a folder such as reports") }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            throw InputError.fail("\(option) \(path) is \(AtomicFile.describe(status.st_mode & S_IFMT)), not a folder")
        }
    }
}
