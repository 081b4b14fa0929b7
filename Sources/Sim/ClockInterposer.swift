#if canImport(Glibc)
import Glibc

/// Makes the process's clocks virtual on a simulation's thread: `clock_gettime` is interposed
/// (linked with `--export-dynamic`, it wins over libc's for every library that calls it through
/// the PLT: Foundation, libdispatch, the concurrency runtime), so `Date()`, `ContinuousClock`,
/// `SuspendingClock` and `Task.sleep` deadlines read virtual time there, as madsim does in Rust.
/// Other threads get the real clock.
enum ClockInterposer {
    typealias ClockGetTime = @convention(c) (clockid_t, UnsafeMutablePointer<timespec>?) -> Int32

    /// libc's `clock_gettime`. Resolved without allocating: an allocator that reads the clock
    /// while it allocates (jemalloc does, preloaded) would re-enter this lazy initializer and
    /// wait on itself forever. A `String` argument to `dlsym` allocates its C copy in debug
    /// builds; a `StaticString` is already a C string in the binary.
    static let real: ClockGetTime = {
        let name: StaticString = "clock_gettime"
        let symbol = name.withUTF8Buffer { buffer in
            dlsym(UnsafeMutableRawPointer(bitPattern: -1), UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self))
        }
        guard let symbol else {
            fatalError("libc has no clock_gettime")
        }
        return unsafeBitCast(symbol, to: ClockGetTime.self)
    }()

    /// True when this process's `clock_gettime` is the interposer (checked by the kernel's tests).
    static var isActive: Bool {
        guard let ours = dlsym(dlopen(nil, RTLD_NOW), "clock_gettime") else { return false }
        return ours == unsafeBitCast(rehearsalClockGetTime as ClockGetTime, to: UnsafeMutableRawPointer.self)
    }
}

@_cdecl("clock_gettime")
public func rehearsalClockGetTime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>?) -> Int32 {
    guard let scheduler = SimulationContext.current, let time else {
        return ClockInterposer.real(clock, time)
    }
    let nanoseconds: Int64
    switch clock {
    case CLOCK_REALTIME, CLOCK_REALTIME_COARSE:
        nanoseconds = scheduler.realtimeNanoseconds
    case CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME:
        nanoseconds = scheduler.monotonicNanoseconds
    default:
        return ClockInterposer.real(clock, time)
    }
    time.pointee = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    return 0
}
#endif
