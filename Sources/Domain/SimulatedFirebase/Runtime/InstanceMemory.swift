/// What one process keeps in memory between calls: a warm Cloud Functions instance's
/// module-scope variables, or one device's manager object. Marks by key, each with a time.
///
/// `claimAcrossAwait` is the literal shape several seed designs invite: check the mark, `await`
/// something else (a cache, an upload, a config promise), then set the mark. That await is a
/// zero-latency hop to another actor, so calls that arrive one after the other are serialised by
/// the default schedule; only a preemption at the hop (actor reentrancy; in JavaScript, another
/// invocation's microtask) lets a second call pass the check before the first sets the mark.
/// The zoo's "needs a scheduling decision" bugs are built on it (docs/zoo.md).
package actor InstanceMemory: DomainActor {
    package nonisolated let executor: any SerialExecutor
    private var marks: [String: Timestamp] = [:]
    private var counts: [String: Int] = [:]
    private let side: InstanceMemorySide

    package init(env: DomainEnvironment, label: String) {
        executor = env.makeExecutor(label: "memory/\(label)")
        side = InstanceMemorySide(env: env, label: label)
    }

    /// True (and marks `key` at `now`) unless `key` is marked and, with `spacing`, the mark is
    /// younger than `spacing` (without `spacing` any mark refuses). Not atomic: the check and
    /// the mark are separated by an await.
    package func claimAcrossAwait(_ key: String, at now: Timestamp, spacing: Duration? = nil) async -> Bool {
        if let mark = marks[key], spacing.map({ now - mark < $0 }) ?? true { return false }
        await side.visit(key)
        marks[key] = now
        return true
    }

    /// Takes up to `amount` of `key`'s allowance of `limit` and returns how much it took. Not
    /// atomic: the read of what was used and the write of the new total are separated by an await.
    package func takeAcrossAwait(_ key: String, amount: Int, limit: Int) async -> Int {
        let used = counts[key, default: 0]
        let granted = min(amount, max(0, limit - used))
        await side.visit(key)
        counts[key] = used + granted
        return granted
    }

    /// Forgets `key` (a finished in-flight request, a failed call that must be retryable).
    package func release(_ key: String) { marks[key] = nil }
}
