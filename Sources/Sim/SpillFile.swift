#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An append-only byte store in an unlinked temporary file, for data a run writes once and
/// rarely reads again (the backend's parked documents in a long load test), so memory does not
/// grow with it. Appends collect in a 1 MiB buffer written out when full; a read of bytes still
/// in the buffer is served from it. The file is created on the first append (in `$TMPDIR`, else
/// `/tmp`) and removed from the directory at once, so it disappears with the process however
/// the process ends. What is read back is exactly what was appended, so nothing a run reads
/// depends on the file (its layout follows the order of the appends).
///
/// If the file cannot be created or written (no space), `append` returns nil from then on and the
/// caller keeps its bytes in memory; bytes already appended stay readable (a failed write keeps its
/// buffer). A read that fails is a lost disk and traps.
public final class SpillFile: Sendable {
    /// Bytes buffered before a write.
    static let bufferSize = 1 << 20

    private struct State {
        /// The file, or -1 before the first append (or if it could not be created).
        var descriptor: Int32 = -1
        /// Bytes in the file; the buffer holds the ones after.
        var written: UInt64 = 0
        var buffer: [UInt8] = []
        /// Set when the file could not be created or written: nothing more is appended.
        var failed = false
    }
    private let state = Mutex(State())
    private let directory: String

    /// A spill file in `directory` (default: `$TMPDIR`, else `/tmp`), created on first use.
    public init(directory: String? = nil) {
        self.directory = directory ?? {
            if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
            return "/tmp"
        }()
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
        }
    }

    /// Appends `bytes`; returns where they start, or nil if the file cannot take them.
    public func append(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        state.withLock { state -> UInt64? in
            guard !state.failed else { return nil }
            if state.descriptor < 0 {
                guard let descriptor = createFile() else {
                    state.failed = true
                    return nil
                }
                state.descriptor = descriptor
                state.buffer.reserveCapacity(Self.bufferSize)
            }
            if state.buffer.count + bytes.count > Self.bufferSize, !state.buffer.isEmpty {
                guard flush(&state) else {
                    state.failed = true
                    return nil
                }
            }
            let offset = state.written + UInt64(state.buffer.count)
            state.buffer.append(contentsOf: bytes)
            return offset
        }
    }

    /// The `count` bytes one `append` stored at `offset`.
    public func read(at offset: UInt64, count: Int) -> [UInt8] {
        state.withLock { state -> [UInt8] in
            let end = offset + UInt64(count)
            precondition(end <= state.written + UInt64(state.buffer.count), "SpillFile: read past the end (\(offset)+\(count))")
            if offset >= state.written {
                let start = Int(offset - state.written)
                return Array(state.buffer[start..<start + count])
            }
            precondition(end <= state.written, "SpillFile: a read straddles the buffer")
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                var done = 0
                while done < count {
                    let result = pread(state.descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                    if result < 0, errno == EINTR { continue }
                    precondition(result != 0, "SpillFile: cannot read back \(count) bytes at \(offset): the file ends first")
                    precondition(result > 0, "SpillFile: cannot read back \(count) bytes at \(offset): \(String(cString: strerror(errno)))")
                    done += result
                }
                initialized = count
            }
        }
    }

    /// Bytes appended so far (tests).
    package var size: UInt64 { state.withLock { $0.written + UInt64($0.buffer.count) } }

    /// Writes the buffer out; false (buffer kept) if the file cannot take it.
    private func flush(_ state: inout State) -> Bool {
        var done = 0
        let count = state.buffer.count
        let descriptor = state.descriptor, written = state.written
        let complete = state.buffer.withUnsafeBytes { bytes -> Bool in
            while done < count {
                let result = pwrite(descriptor, bytes.baseAddress! + done, count - done, off_t(written) + off_t(done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return false }
                done += result
            }
            return true
        }
        guard complete else { return false }
        state.written += UInt64(count)
        // A record larger than the buffer grew it: give that back.
        if state.buffer.capacity > 2 * Self.bufferSize {
            state.buffer = []
            state.buffer.reserveCapacity(Self.bufferSize)
        } else {
            state.buffer.removeAll(keepingCapacity: true)
        }
        return true
    }

    /// Makes names unique among the spill files of one process; the process id among processes,
    /// and O_EXCL catches what is left.
    private static let nextName = Atomic<Int>(0)

    /// A new file in `directory`, already unlinked; nil if it cannot be made.
    private func createFile() -> Int32? {
        for _ in 0..<100 {
            let serial = Self.nextName.add(1, ordering: .relaxed).newValue
            let path = "\(directory)/.rehearse-spill-\(getpid())-\(serial)"
            // O_CLOEXEC at creation: a process forked meanwhile (a sweep's worker) never holds it.
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                _ = unlink(path)
                return descriptor
            }
            guard errno == EEXIST || errno == EINTR else { return nil }
        }
        return nil
    }
}
