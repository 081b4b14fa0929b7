#if canImport(Glibc)
import Glibc
#endif

/// `Dictionary`/`Set` order depends on a per-process hash seed unless
/// `SWIFT_DETERMINISTIC_HASHING=1` is set before the process starts; `rehearse` re-executes
/// itself with it set, so a seed means the same run on every invocation.
package enum DeterministicHashing {
    package static let variable = "SWIFT_DETERMINISTIC_HASHING"

    package static var isOn: Bool { getenv(variable).map { String(cString: $0) == "1" } ?? false }

    /// Re-executes the process with the variable set when it is not; returns only if it is set
    /// (or re-execution is impossible, which is reported).
    package static func ensure() {
        guard !isOn else { return }
        setenv(variable, "1", 1)
        var path = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else {
            Rehearse.printError("cannot find /proc/self/exe to re-execute with \(variable)=1; set it yourself")
            return
        }
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(path, arguments)
        Rehearse.printError("re-executing with \(variable)=1 failed (errno \(errno)); set it yourself")
    }
}
