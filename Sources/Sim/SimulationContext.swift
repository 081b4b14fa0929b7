#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The simulation active on the calling thread, if any (thread-local, like FoundationDB's
/// `g_network` per thread): runtime hooks and the clock interposer route by it, so two
/// simulations on two threads never see each other's jobs.
enum SimulationContext {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The scheduler running on this thread, or nil outside a simulation.
    @inline(__always)
    static var current: Scheduler? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<Scheduler>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Makes `scheduler` this thread's simulation (nil clears it). The caller keeps it alive.
    static func set(_ scheduler: Scheduler?) {
        let raw = scheduler.map { UnsafeMutableRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        let status = pthread_setspecific(key, raw)
        precondition(status == 0, "pthread_setspecific failed: \(status)")
    }
}
