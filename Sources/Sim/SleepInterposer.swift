#if canImport(Glibc)
import Glibc

/// Catches real-time sleeps (`Thread.sleep`, `usleep`, `sleep`, `nanosleep`) on a simulation's
/// thread: they would block its only thread in real time while virtual time stands still. In
/// strict mode the run fails naming the call; otherwise the call returns at once.
enum SleepInterposer {
    typealias NanoSleep = @convention(c) (UnsafePointer<timespec>?, UnsafeMutablePointer<timespec>?) -> Int32

    static let realNanosleep: NanoSleep = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "nanosleep") else {
            fatalError("libc has no nanosleep")
        }
        return unsafeBitCast(symbol, to: NanoSleep.self)
    }()

    /// Sleeps in real time, bypassing the interposer (for the kernel's own waits outside the simulation).
    static func sleepReal(microseconds: Int) {
        var request = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1_000)
        _ = realNanosleep(&request, nil)
    }

    /// Sleeps shorter than this are lock back-off inside libraries (CoreFoundation spins with
    /// `sleep(0)`/`usleep` when two simulations on two threads format dates at once): they wait
    /// for another thread, not for time, so they pass through in real time.
    static let backOffLimitNanoseconds: Int64 = 1_000_000

    /// Returns true when the sleep was intercepted (the caller then returns without sleeping).
    static func intercept(_ call: String, nanoseconds: Int64) -> Bool {
        guard nanoseconds >= backOffLimitNanoseconds, let scheduler = SimulationContext.current else { return false }
        scheduler.realTimeSleep(call: call, nanoseconds: nanoseconds)
        return true
    }
}

/// `nanosleep` for the process: on a simulation thread the sleep moves virtual time instead of blocking.
@_cdecl("nanosleep")
public func rehearsalNanosleep(_ request: UnsafePointer<timespec>?, _ remaining: UnsafeMutablePointer<timespec>?) -> Int32 {
    if let request, SleepInterposer.intercept("nanosleep", nanoseconds: Int64(request.pointee.tv_sec) * 1_000_000_000 + Int64(request.pointee.tv_nsec)) {
        return 0
    }
    return SleepInterposer.realNanosleep(request, remaining)
}

/// `usleep` for the process: on a simulation thread the sleep moves virtual time instead of blocking.
@_cdecl("usleep")
public func rehearsalUsleep(_ microseconds: UInt32) -> Int32 {
    if SleepInterposer.intercept("usleep", nanoseconds: Int64(microseconds) * 1_000) { return 0 }
    SleepInterposer.sleepReal(microseconds: Int(microseconds))
    return 0
}

/// `sleep` for the process: on a simulation thread the sleep moves virtual time instead of blocking.
@_cdecl("sleep")
public func rehearsalSleep(_ seconds: UInt32) -> UInt32 {
    if SleepInterposer.intercept("sleep", nanoseconds: Int64(seconds) * 1_000_000_000) { return 0 }
    SleepInterposer.sleepReal(microseconds: Int(seconds) * 1_000_000)
    return 0
}
#endif
