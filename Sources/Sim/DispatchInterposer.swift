#if canImport(Glibc)
import Glibc

/// Catches work handed to a Dispatch queue from a simulation's thread (`DispatchQueue.async`,
/// `asyncAfter`, a group's `async`): the queue runs it on a real thread, at a real time no seed
/// decides, and a callback that resumes simulated work would look like a deadlock until it came.
/// In strict mode the run ends as an escape at the call, naming the task; the work is still
/// handed over, so a non-strict run behaves as it would without the simulator.
enum DispatchInterposer {
    typealias Async = @convention(c) (OpaquePointer?, UnsafeRawPointer?) -> Void
    typealias AsyncF = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void
    typealias After = @convention(c) (UInt64, OpaquePointer?, UnsafeRawPointer?) -> Void
    typealias AfterF = @convention(c) (UInt64, OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void
    typealias GroupAsync = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?) -> Void

    static let async = RandomInterposer.next("dispatch_async", as: Async.self)
    static let asyncF = RandomInterposer.next("dispatch_async_f", as: AsyncF.self)
    static let after = RandomInterposer.next("dispatch_after", as: After.self)
    static let afterF = RandomInterposer.next("dispatch_after_f", as: AfterF.self)
    static let barrierAsync = RandomInterposer.next("dispatch_barrier_async", as: Async.self)
    static let groupAsync = RandomInterposer.next("dispatch_group_async", as: GroupAsync.self)

    /// Records the escape when the caller is on a simulation thread.
    @inline(__always)
    static func note(_ call: StaticString) {
        guard let scheduler = SimulationContext.current, scheduler.isOnSimulationThread else { return }
        scheduler.foreignWork(call: "\(call)")
    }
}

/// `dispatch_async` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("dispatch_async")
public func rehearsalDispatchAsync(_ queue: OpaquePointer?, _ block: UnsafeRawPointer?) {
    DispatchInterposer.note("DispatchQueue.async")
    DispatchInterposer.async?(queue, block)
}

/// `dispatch_async_f` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("dispatch_async_f")
public func rehearsalDispatchAsyncF(_ queue: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ work: UnsafeRawPointer?) {
    DispatchInterposer.note("dispatch_async_f")
    DispatchInterposer.asyncF?(queue, context, work)
}

/// `dispatch_after` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("dispatch_after")
public func rehearsalDispatchAfter(_ when: UInt64, _ queue: OpaquePointer?, _ block: UnsafeRawPointer?) {
    DispatchInterposer.note("DispatchQueue.asyncAfter")
    DispatchInterposer.after?(when, queue, block)
}

/// `dispatch_after_f` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("dispatch_after_f")
public func rehearsalDispatchAfterF(_ when: UInt64, _ queue: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ work: UnsafeRawPointer?) {
    DispatchInterposer.note("dispatch_after_f")
    DispatchInterposer.afterF?(when, queue, context, work)
}

/// `dispatch_barrier_async` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("dispatch_barrier_async")
public func rehearsalDispatchBarrierAsync(_ queue: OpaquePointer?, _ block: UnsafeRawPointer?) {
    DispatchInterposer.note("DispatchQueue.async(flags: .barrier)")
    DispatchInterposer.barrierAsync?(queue, block)
}

/// `dispatch_group_async` for the process: an escape (strict mode) when a simulation's thread calls it.
@_cdecl("dispatch_group_async")
public func rehearsalDispatchGroupAsync(_ group: OpaquePointer?, _ queue: OpaquePointer?, _ block: UnsafeRawPointer?) {
    DispatchInterposer.note("DispatchQueue.async(group:)")
    DispatchInterposer.groupAsync?(group, queue, block)
}
#endif
