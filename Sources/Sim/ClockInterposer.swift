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

    /// Why virtual time would not be in effect in this process, or nil when it is. Measured once,
    /// the way a user's code would see it: on a throwaway scheduler whose virtual time is moved by
    /// a known amount, `ContinuousClock.now` (read by the Swift runtime's library, not by this
    /// module) must move by exactly that amount. Without the interposer it moves by the few
    /// nanoseconds of real time between the reads.
    static let problem: String? = {
        let previous = SimulationContext.current
        let probe = Scheduler(configuration: SimulationConfiguration(seed: 0))
        SimulationContext.set(probe)
        let before = ContinuousClock.now
        probe.moveTimeForClockProbe(by: probeStepNanoseconds)
        let after = ContinuousClock.now
        SimulationContext.set(previous)
        probe.releaseBuffers()
        guard before.duration(to: after) != .nanoseconds(probeStepNanoseconds) else { return nil }
        return missingLinkerSettingMessage
    }()

    /// How far the probe moves virtual time (an odd value the real clock will not reproduce).
    static let probeStepNanoseconds: Int64 = 1_234_567_891

    /// The refusal, naming the fix. (It names `Date()` and `ContinuousClock` as what would read the
    /// real clock; nothing here reads them.)
    static let missingLinkerSettingMessage = """
        Rehearsal: virtual time is not in effect in this process, so Date(), ContinuousClock and \
        Task.sleep deadlines would read the real clock and runs would not be deterministic. The \
        kernel's clock_gettime interposer is not visible to the Swift runtime's libraries: add \
        `linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]` to the executable or \
        test target that runs simulations (docs/depend-on-rehearsal.md).
        """
}

/// `clock_gettime` for the whole process: virtual time on a simulation thread, the real clock elsewhere.
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
