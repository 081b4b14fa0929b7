#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one writer of every file Rehearsal produces (traces, reports, sweep results, artifacts),
/// so a crash or kill never leaves a half-written file and two writers never collide: the bytes
/// go to a temporary file with a unique name in the same directory, are fsynced, the file is
/// renamed over the target and the directory is fsynced. The temporary file is removed on every
/// failure. A target that exists and is not a regular file (a device such as /dev/null, a
/// directory, a FIFO, a socket) or is a symbolic link is refused: a rename would silently
/// replace the node (or the link) with a regular file.
public enum AtomicFile {
    /// Why a write failed, with the path and the reason (the system's, or the refusal's).
    public struct WriteError: Error, CustomStringConvertible {
        /// The file that could not be written.
        public var path: String
        /// What went wrong, from the system call that failed.
        public var reason: String
        /// One line naming the file and the reason.
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Makes temporary names unique among the writers of one process (threads of a sweep);
    /// the process id makes them unique among processes, and O_EXCL catches what is left.
    private static let nextTemporary = Atomic<Int>(0)

    /// Replaces `path` with `contents` atomically, creating missing parent directories.
    public static func write(_ contents: String, to path: String) throws(WriteError) {
        guard !path.isEmpty else { throw WriteError(path: "''", reason: "the path is empty") }
        guard !path.hasSuffix("/") else { throw WriteError(path: path, reason: "the path names a directory, not a file") }
        try refuseUnusualTarget(path)
        try createDirectories(parentOf: path)
        let (directory, name) = split(path)
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<100 {
            let serial = nextTemporary.add(1, ordering: .relaxed).newValue
            temporary = "\(directory.map { "\($0)/" } ?? "").\(name).tmp-\(getpid())-\(serial)"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: systemReason()) }
        var failure: String?
        var text = contents
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = systemReason()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = systemReason() }
        if close(descriptor) != 0, failure == nil { failure = systemReason() }
        // Checked again just before the rename: the target may have appeared meanwhile.
        if failure == nil {
            do { try refuseUnusualTarget(path) } catch { failure = error.reason }
        }
        if failure == nil, rename(temporary, path) != 0 { failure = systemReason() }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
        syncDirectory(directory ?? ".")
    }

    /// Refuses a `path` that exists and is not a regular file, or is a symbolic link.
    public static func refuseUnusualTarget(_ path: String) throws(WriteError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        guard kind != S_IFREG else { return }
        throw WriteError(path: path, reason: "it exists and is \(describe(kind)), not a regular file; refusing to replace it")
    }

    /// `a directory`, `a FIFO`, … for a file type from `st_mode & S_IFMT`.
    public static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFLNK: "a symbolic link"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// `mkdir -p` of the directory that holds `path`.
    public static func createDirectories(parentOf path: String) throws(WriteError) {
        guard let directory = split(path).directory else { return }
        try createDirectories(directory, for: path)
    }

    /// `mkdir -p` of `directory` (errors name `path`, the file about to be written there).
    public static func createDirectories(_ directory: String, for path: String? = nil) throws(WriteError) {
        guard !directory.isEmpty else { throw WriteError(path: path ?? "''", reason: "the folder name is empty") }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0 {
                guard errno == EEXIST else {
                    throw WriteError(path: path ?? directory, reason: "cannot create \(prefix): \(systemReason())")
                }
                var status = stat()
                if stat(prefix, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                    throw WriteError(path: path ?? directory, reason: "\(prefix) is \(describe(status.st_mode & S_IFMT)), not a folder")
                }
            }
        }
    }

    /// The folder (nil: the current one) and the file name of `path`.
    private static func split(_ path: String) -> (directory: String?, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (nil, path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// Makes the rename durable; failures are ignored (some file systems cannot fsync folders).
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
