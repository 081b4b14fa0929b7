/// The other actor an `InstanceMemory` claim awaits between its check and its mark (the cache,
/// upload manager or config promise of the literal design); it only counts visits.
actor InstanceMemorySide: DomainActor {
    nonisolated let executor: any SerialExecutor
    private var visits: [String: Int] = [:]

    init(env: DomainEnvironment, label: String) {
        executor = env.makeExecutor(label: "memory-side/\(label)")
    }

    /// One visit for `key` (a real hop: the caller suspends here).
    func visit(_ key: String) { visits[key, default: 0] += 1 }
}
