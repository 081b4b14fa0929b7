#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs the Swift concurrency runtime's global hooks once per process and routes jobs that
/// would leave for the global executor (`Task {}`, `Task.detached`, timed wake-ups) into the
/// simulation active on the calling thread, as FoundationDB does (`swift_concurrency_hooks.h`).
/// Threads without a simulation fall through to the original runtime behaviour.
enum RuntimeHooks {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueHook = @convention(thin) (UnownedJob, Original) -> Void
    typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias GetMainOriginal = @convention(thin) () -> UnownedSerialExecutor
    typealias GetMainHook = @convention(thin) (GetMainOriginal) -> UnownedSerialExecutor
    typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

    /// Installs the hooks (idempotent; the first call wins). Fails loudly if the runtime lacks them.
    static func install() { _ = installed }

    private static let installed: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { fatalError("dlopen(nil) failed") }
        func slot<T>(_ name: String, _ type: T.Type) -> UnsafeMutablePointer<T?> {
            guard let symbol = dlsym(handle, name) else {
                fatalError("Swift runtime has no \(name): this toolchain cannot host the simulator")
            }
            return symbol.assumingMemoryBound(to: T?.self)
        }
        slot("swift_task_enqueueGlobal_hook", EnqueueHook.self).pointee = enqueueGlobal
        slot("swift_task_enqueueGlobalWithDelay_hook", DelayHook.self).pointee = enqueueGlobalWithDelay
        slot("swift_task_enqueueGlobalWithDeadline_hook", DeadlineHook.self).pointee = enqueueGlobalWithDeadline
        slot("swift_task_enqueueMainExecutor_hook", EnqueueHook.self).pointee = enqueueMain
        slot("swift_task_getMainExecutor_hook", GetMainHook.self).pointee = getMainExecutor
        return true
    }()

    private static let enqueueGlobal: EnqueueHook = { job, original in
        if let scheduler = SimulationContext.current {
            scheduler.enqueue(job, on: nil, origin: .global)
        } else if let owner = ForeignJobRouter.owner(of: job) {
            owner.enqueueFromForeignThread(job)
        } else {
            original(job)
        }
    }

    private static let enqueueGlobalWithDelay: DelayHook = { delay, job, original in
        if let scheduler = SimulationContext.current {
            scheduler.schedule(job, afterNanoseconds: delay)
        } else {
            original(delay, job)
        }
    }

    private static let enqueueGlobalWithDeadline: DeadlineHook = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
        if let scheduler = SimulationContext.current {
            // The deadline is on the process's monotonic clock, which the interposer makes
            // virtual while a simulation runs; convert it to a delay from virtual now.
            let deadline = seconds &* 1_000_000_000 &+ nanoseconds
            let now = scheduler.monotonicNanoseconds
            scheduler.schedule(job, afterNanoseconds: UInt64(max(0, deadline - now)))
        } else {
            original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
        }
    }

    private static let getMainExecutor: GetMainHook = { original in
        if let scheduler = SimulationContext.current {
            // MainActor.run and @MainActor hops fetch the main executor first; the job they then
            // enqueue never reaches any hook and would hang the run silently.
            scheduler.escape(.mainActor, detail: "code inside the simulation used the MainActor (MainActor.run or a @MainActor function)")
        }
        return original()
    }

    private static let enqueueMain: EnqueueHook = { job, original in
        if let scheduler = SimulationContext.current {
            // The main thread never runs inside a simulation: the job would hang the run silently.
            scheduler.escape(.mainActor, detail: "a job was enqueued on the MainActor (MainActor.run or a @MainActor call)")
        } else {
            original(job)
        }
    }
}
