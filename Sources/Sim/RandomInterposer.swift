#if canImport(Glibc)
import Glibc
import SimSyscall

/// Catches system randomness on a simulation's thread: `SystemRandomNumberGenerator` (so
/// `Int.random(in:)`, `.shuffled()` and `.randomElement()` without `using:`), `UUID()`,
/// `getrandom`, `getentropy`, `arc4random*` and opening /dev/urandom all end in one of the
/// interposed calls (`syscall` and `open` in SimSyscall, the rest here). Each would
/// make a seed run differently every time. In strict mode the run ends as an escape naming the
/// call and the task that made it; either way the bytes come from a stream of the run's seed, so
/// a non-strict run stays deterministic.
enum RandomInterposer {
    typealias GetRandom = @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int
    typealias GetEntropy = @convention(c) (UnsafeMutableRawPointer?, Int) -> Int32
    typealias Arc4RandomBuf = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void

    /// libc's function named `name` (never the interposer), resolved without allocating.
    static func next<Function>(_ name: StaticString, as type: Function.Type) -> Function? {
        let symbol = name.withUTF8Buffer { buffer in
            dlsym(UnsafeMutableRawPointer(bitPattern: -1), UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self))
        }
        return symbol.map { unsafeBitCast($0, to: type) }
    }

    static let realGetrandom: GetRandom? = next("getrandom", as: GetRandom.self)
    static let realGetentropy: GetEntropy? = next("getentropy", as: GetEntropy.self)
    static let realArc4randomBuf: Arc4RandomBuf? = next("arc4random_buf", as: Arc4RandomBuf.self)

    /// Installs the `syscall(SYS_getrandom)` hook once (the standard library's generator makes
    /// that call directly); the scheduler touches it as it starts.
    static let installed: Void = {
        sim_syscall_set_getrandom_hook { buffer, count, _ in
            guard let scheduler = SimulationContext.current, scheduler.isOnSimulationThread else { return -1 }
            // Catches the call, never reads the system's randomness: the bytes come from the run's
            // seeded stream (or the run ends as an escape in strict mode).
            scheduler.systemRandomness(call: "SystemRandomNumberGenerator", into: buffer, count: Int(count))
            return Int(count)
        }
        sim_syscall_set_random_device_hook { path, buffer, count in
            guard let scheduler = SimulationContext.current, scheduler.isOnSimulationThread else { return -1 }
            let device = path.map { String(cString: $0) } ?? "/dev/urandom"
            scheduler.systemRandomness(call: "a read of \(device)", into: buffer, count: Int(count))
            return 0
        }
    }()

    /// Fills `buffer` from the simulation's stream when the caller is on a simulation thread
    /// (recording the escape); false when it is not (the caller then asks libc).
    static func intercept(_ call: StaticString, _ buffer: UnsafeMutableRawPointer?, count: Int) -> Bool {
        guard let scheduler = SimulationContext.current, scheduler.isOnSimulationThread else { return false }
        scheduler.systemRandomness(call: "\(call)", into: buffer, count: count)
        return true
    }

    /// Real random bytes for a thread outside any simulation.
    static func fillReal(_ buffer: UnsafeMutableRawPointer?, count: Int) {
        if let realArc4randomBuf { realArc4randomBuf(buffer, count); return }
        var filled = 0
        while filled < count, let realGetrandom {
            let got = realGetrandom(buffer.map { $0 + filled }, count - filled, 0)
            if got <= 0 { break }
            filled += got
        }
    }
}

/// `getrandom` for the process: seeded bytes (and an escape in strict mode) on a simulation thread.
@_cdecl("getrandom")
public func rehearsalGetrandom(_ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: UInt32) -> Int {
    if RandomInterposer.intercept("getrandom", buffer, count: count) { return count }
    guard let real = RandomInterposer.realGetrandom else { errno = ENOSYS; return -1 }
    return real(buffer, count, flags)
}

/// `getentropy` for the process: seeded bytes (and an escape in strict mode) on a simulation thread.
@_cdecl("getentropy")
public func rehearsalGetentropy(_ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int32 {
    if RandomInterposer.intercept("getentropy", buffer, count: count) { return 0 }
    guard let real = RandomInterposer.realGetentropy else { errno = ENOSYS; return -1 }
    return real(buffer, count)
}

/// `arc4random_buf` for the process: seeded bytes (and an escape in strict mode) on a simulation thread.
@_cdecl("arc4random_buf")
public func rehearsalArc4randomBuf(_ buffer: UnsafeMutableRawPointer?, _ count: Int) {
    if RandomInterposer.intercept("arc4random_buf", buffer, count: count) { return }
    RandomInterposer.fillReal(buffer, count: count)
}

/// `arc4random` for the process: a seeded word (and an escape in strict mode) on a simulation thread.
@_cdecl("arc4random")
public func rehearsalArc4random() -> UInt32 {
    var value: UInt32 = 0
    if !RandomInterposer.intercept("arc4random", &value, count: 4) { RandomInterposer.fillReal(&value, count: 4) }
    return value
}

/// `arc4random_uniform` for the process: a seeded value below `bound` (and an escape in strict
/// mode) on a simulation thread.
@_cdecl("arc4random_uniform")
public func rehearsalArc4randomUniform(_ bound: UInt32) -> UInt32 {
    guard bound > 1 else { return 0 }
    var value: UInt64 = 0
    if !RandomInterposer.intercept("arc4random_uniform", &value, count: 8) { RandomInterposer.fillReal(&value, count: 8) }
    return UInt32(value % UInt64(bound))
}
#endif
