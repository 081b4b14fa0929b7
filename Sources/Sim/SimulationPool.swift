#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Runs many independent simulations on dedicated threads (one per core by default). Each
/// simulation is confined to the thread that runs it, so results are identical to running the
/// seeds one by one; only wall time changes.
public enum SimulationPool {
    /// The number of CPUs online.
    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Calls `work` once per element of `inputs`, spread over `threads` dedicated threads, and
    /// returns the results in input order. `progress`, if given, is called (from a worker thread)
    /// with the number completed so far after each one.
    public static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input],
        threads: Int = SimulationPool.processorCount,
        progress: (@Sendable (Int) -> Void)? = nil,
        _ work: @escaping @Sendable (Input) -> Output
    ) -> [Output] {
        precondition(threads >= 1, "SimulationPool needs at least one thread")
        guard !inputs.isEmpty else { return [] }
        let batch = Batch(inputs: inputs, progress: progress, work: work)
        let workerCount = min(threads, inputs.count)
        var workers: [pthread_t] = []
        workers.reserveCapacity(workerCount)
        for _ in 0..<workerCount {
            var thread = pthread_t()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 8 << 20)
            let context = Unmanaged.passRetained(batch as AnyObject).toOpaque()
            let status = pthread_create(&thread, &attributes, simulationPoolWorkerEntry, context)
            pthread_attr_destroy(&attributes)
            precondition(status == 0, "pthread_create failed: \(status)")
            workers.append(thread)
        }
        for thread in workers { pthread_join(thread, nil) }
        return batch.results()
    }

    /// One batch of work shared by the worker threads: inputs, a claim counter and result slots.
    final class Batch<Input: Sendable, Output: Sendable>: PoolWork, @unchecked Sendable {
        let inputs: [Input]
        let progress: (@Sendable (Int) -> Void)?
        let work: @Sendable (Input) -> Output
        private let next = Atomic<Int>(0)
        private let completed = Atomic<Int>(0)
        private let slots: Mutex<[Output?]>

        init(inputs: [Input], progress: (@Sendable (Int) -> Void)?, work: @escaping @Sendable (Input) -> Output) {
            self.inputs = inputs
            self.progress = progress
            self.work = work
            self.slots = Mutex([Output?](repeating: nil, count: inputs.count))
        }

        func runWorker() {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < inputs.count else { return }
                let output = work(inputs[index])
                slots.withLock { $0[index] = output }
                let done = completed.add(1, ordering: .relaxed).newValue
                progress?(done)
            }
        }

        func results() -> [Output] {
            slots.withLock { slots in slots.map { $0! } }
        }
    }
}

/// What a pool worker thread runs.
protocol PoolWork: AnyObject {
    func runWorker()
}

/// Thread entry point: a global function, as isolation checking requires (see DETERMINISM.md).
private func simulationPoolWorkerEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let object = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue()
    (object as! PoolWork).runWorker()
    return nil
}
