#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for tests that run `rehearse` and other tools.
///
/// Foundation's `Process` on Linux crashed the test binary (SIGSEGV in a memmove) when suites
/// running in parallel started and reaped children at the same moment, even with every launch
/// serialised; this type keeps no shared state: pipes are made close-on-exec (a child never
/// inherits another test's pipe), both outputs are drained with `poll` on the calling thread, and
/// the child is reaped with `waitpid` on its own pid. It starts with no signal blocked or ignored.
public final class ChildProcess: @unchecked Sendable {
    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        /// Captured into the result.
        case capture
        /// `/dev/null`.
        case discard
    }

    /// How a child ended and what it wrote.
    public struct Result: Sendable {
        /// Its exit status, or the signal that ended it when `signal` is set.
        public var status: Int32
        /// The signal that ended it, if one did.
        public var signal: Int32?
        /// Its standard output (empty unless captured).
        public var standardOutput: [UInt8]
        /// Its standard error (empty unless captured; the output itself when merged).
        public var standardError: [UInt8]
        /// Whether it was killed for running past its time limit.
        public var timedOut: Bool

        /// Standard output as text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as text.
        public var error: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// A failure to start the child.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The call that failed and its errno.
        public var description: String
    }

    /// The child's process id.
    public let pid: pid_t
    private var outRead: Int32
    private var errRead: Int32
    private var reaped: Result?

    /// Starts `executable` with `arguments`; `environment` nil inherits this process's, `directory`
    /// nil its working directory; `mergeErrorIntoOutput` sends standard error into the output pipe.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                standardOutput: Output = .capture, standardError: Output = .capture, mergeErrorIntoOutput: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var toClose: [Int32] = []
        defer { for fd in toClose { close(fd) } }
        func pipePair() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard let pipe2 = Self.pipe2, pipe2(&fds, O_CLOEXEC) == 0 else { throw SpawnError(description: "pipe2: errno \(errno)") }
            return (fds[0], fds[1])
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var outRead: Int32 = -1, errRead: Int32 = -1
        if standardOutput == .capture {
            let pair = try pipePair()
            outRead = pair.read
            toClose.append(pair.write)
            posix_spawn_file_actions_adddup2(&actions, pair.write, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if mergeErrorIntoOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else if standardError == .capture {
            let pair = try pipePair()
            errRead = pair.read
            toClose.append(pair.write)
            posix_spawn_file_actions_adddup2(&actions, pair.write, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        if let directory {
            guard let addchdir = Self.addchdir else { throw SpawnError(description: "posix_spawn_file_actions_addchdir_np is not available") }
            _ = directory.withCString { addchdir(&actions, $0) }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentLines = (environment ?? Self.currentEnvironment()).sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in environmentLines { free(pointer) } }
        // A clean signal state: the spawning thread (a dispatch worker, a test runner thread)
        // may block or ignore signals, and a child inherits both.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environmentLines)
        guard result == 0 else {
            if outRead >= 0 { close(outRead) }
            if errRead >= 0 { close(errRead) }
            throw SpawnError(description: "posix_spawn \(executable): errno \(result)")
        }
        pid = child
        self.outRead = outRead
        self.errRead = errRead
    }

    deinit {
        if outRead >= 0 { close(outRead) }
        if errRead >= 0 { close(errRead) }
    }

    /// Runs `executable` to its end (or `timeLimit` seconds, then SIGKILL) and returns what it wrote.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                           standardOutput: Output = .capture, standardError: Output = .capture, mergeErrorIntoOutput: Bool = false,
                           timeLimit: Double? = nil) throws -> Result {
        try ChildProcess(executable, arguments, environment: environment, directory: directory, standardOutput: standardOutput,
                         standardError: standardError, mergeErrorIntoOutput: mergeErrorIntoOutput).wait(timeLimit: timeLimit)
    }

    /// Sends `signal` to the child (SIGKILL by default).
    public func kill(_ signal: Int32 = SIGKILL) {
        if reaped == nil { _ = Glibc.kill(pid, signal) }
    }

    /// Drains the child's outputs to their end and reaps it; after `timeLimit` seconds it is
    /// killed and the result says so.
    public func wait(timeLimit: Double? = nil) -> Result {
        if let reaped { return reaped }
        var out: [UInt8] = [], err: [UInt8] = []
        var timedOut = false
        let deadline = timeLimit.map { Self.monotonicSeconds() + $0 }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while outRead >= 0 || errRead >= 0 {
            var fds: [pollfd] = []
            if outRead >= 0 { fds.append(pollfd(fd: outRead, events: Int16(POLLIN), revents: 0)) }
            if errRead >= 0 { fds.append(pollfd(fd: errRead, events: Int16(POLLIN), revents: 0)) }
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let left = deadline - Self.monotonicSeconds()
                if left <= 0 {
                    if !timedOut { timedOut = true; kill() }
                    waitMilliseconds = 100
                } else {
                    waitMilliseconds = Int32(min(left * 1000 + 1, 60_000))
                }
            }
            let ready = poll(&fds, nfds_t(fds.count), waitMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count > 0 {
                    if entry.fd == outRead { out.append(contentsOf: buffer[0..<count]) } else { err.append(contentsOf: buffer[0..<count]) }
                    continue
                }
                close(entry.fd)
                if entry.fd == outRead { outRead = -1 } else { errRead = -1 }
            }
        }
        var status: Int32 = 0
        while true {
            if let deadline, !timedOut {
                // Outputs closed but the child may linger (it closed them itself): keep the limit.
                let got = waitpid(pid, &status, WNOHANG)
                if got == pid { break }
                if got < 0 && errno != EINTR { break }
                if Self.monotonicSeconds() > deadline { timedOut = true; kill() ; continue }
                usleep(10_000)
                continue
            }
            if waitpid(pid, &status, 0) >= 0 || errno != EINTR { break }
        }
        let terminatedBySignal = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        let result = Result(status: terminatedBySignal ? status & 0x7f : (status >> 8) & 0xff, signal: terminatedBySignal ? status & 0x7f : nil,
                            standardOutput: out, standardError: err, timedOut: timedOut)
        reaped = result
        return result
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let line = cursor.pointee {
            let text = String(cString: line)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            cursor += 1
        }
        return result
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    /// glibc's `pipe2` (not imported by the Glibc module): a pipe made close-on-exec atomically, so
    /// a child spawned by another thread at that moment never inherits it (and never holds it open).
    private static let pipe2: Pipe2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    /// glibc's `posix_spawn_file_actions_addchdir_np` (a GNU extension the Glibc module does not import).
    private static let addchdir: AddChdir? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()
}
