#if canImport(Glibc)
import Glibc

/// Catches a thread started from a simulation's thread (`Thread.start`, `Thread.detachNewThread`,
/// a direct `pthread_create`): the thread runs at a real time no seed decides, and a callback
/// that resumes simulated work would look like a deadlock until it came. In strict mode the run
/// ends as an escape at the call, naming the task; the thread is still started, so a non-strict
/// run behaves as it would without the simulator. The kernel's own threads (the watchdog, the
/// simulation pool) start outside any simulation's thread.
enum ThreadInterposer {
    typealias Start = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    typealias Create = @convention(c) (UnsafeMutablePointer<pthread_t>?, UnsafePointer<pthread_attr_t>?, Start?, UnsafeMutableRawPointer?) -> Int32

    static let create = RandomInterposer.next("pthread_create", as: Create.self)
}

/// `pthread_create` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("pthread_create")
public func rehearsalPthreadCreate(
    _ thread: UnsafeMutablePointer<pthread_t>?, _ attributes: UnsafePointer<pthread_attr_t>?,
    _ start: (@convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?)?, _ argument: UnsafeMutableRawPointer?
) -> Int32 {
    if let scheduler = SimulationContext.current, scheduler.isOnSimulationThread {
        scheduler.foreignWork(call: "Thread.start (pthread_create)")
    }
    guard let create = ThreadInterposer.create else { return EAGAIN }
    return create(thread, attributes, start, argument)
}
#endif
