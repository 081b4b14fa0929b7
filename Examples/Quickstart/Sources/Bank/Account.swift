import Sim

/// A bank account. `RehearsableActor`: in production it runs on the global pool; created inside
/// a simulation, every hop to it is a scheduling point the simulator explores.
public actor Account: RehearsableActor {
    public nonisolated let executor: any SerialExecutor
    public let owner: String
    public private(set) var balance: Int

    public init(_ owner: String, balance: Int) {
        self.executor = RehearsableExecutor.make(owner)
        self.owner = owner
        self.balance = balance
    }

    public func withdraw(_ amount: Int) { balance -= amount }
    public func deposit(_ amount: Int) { balance += amount }

    /// Check and act in one actor turn: nothing can run in between.
    public func withdrawIfCovered(_ amount: Int) -> Bool {
        guard balance >= amount else { return false }
        balance -= amount
        return true
    }
}
