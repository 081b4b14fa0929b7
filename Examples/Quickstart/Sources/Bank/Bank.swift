import Sim

/// Moves money between accounts and keeps a ledger.
public actor Bank: RehearsableActor {
    public nonisolated let executor = RehearsableExecutor.make("bank")
    public private(set) var ledger: [String] = []
    /// The first version: checks the balance, then withdraws. Both are awaits on the account, and
    /// the bank writes its ledger in between, so another transfer can run between check and act.
    public let checksThenActs: Bool

    public init(checksThenActs: Bool = false) { self.checksThenActs = checksThenActs }

    public func transfer(_ amount: Int, from: Account, to: Account) async -> Bool {
        if checksThenActs {
            guard await from.balance >= amount else { return false }
            ledger.append("\(from.owner) -> \(to.owner): \(amount)")
            await from.withdraw(amount)
        } else {
            guard await from.withdrawIfCovered(amount) else { return false }
            ledger.append("\(from.owner) -> \(to.owner): \(amount)")
        }
        await to.deposit(amount)
        return true
    }
}
