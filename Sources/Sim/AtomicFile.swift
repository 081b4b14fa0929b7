#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a crash never leaves a half-written one: the bytes go to a temporary
/// file in the same directory, are flushed to disk, and the file is renamed over the target.
public enum AtomicFile {
    /// Why a write failed, with the path and the system's reason.
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Replaces `path` with `contents` atomically, creating missing parent directories.
    public static func write(_ contents: String, to path: String) throws(WriteError) {
        try createDirectories(parentOf: path)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        var text = contents
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
    }

    /// `mkdir -p` of the directory that holds `path`.
    public static func createDirectories(parentOf path: String) throws(WriteError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        guard !directory.isEmpty else { return }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw WriteError(path: path, reason: "cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}
