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
        // Made and written to now, before any work: a folder that cannot hold the report (under a
        // file, in /proc or /sys, a name past NAME_MAX, read-only) is bad input, not a failure at the end.
        if let component = path.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
            throw InputError.fail("\(option): the name '\(component.prefix(40))…' is longer than \(NAME_MAX) bytes")
        }
        if let problem = Self.makeFolders(path) { throw InputError.fail("\(option) \(path) cannot be created: \(problem)") }
        let probe = "\(path)/.rehearse-probe-\(getpid())"
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw InputError.fail("\(option) \(path) is not writable: \(String(cString: strerror(errno)))") }
        close(descriptor)
        unlink(probe)
    }

    /// `mkdir -p path`: nil when it exists as a folder afterwards, else the system's reason.
    private static func makeFolders(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/\(component)"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return String(cString: strerror(errno)) }
        return status.st_mode & S_IFMT == S_IFDIR ? nil : "\(prefix) is not a folder"
    }
}
