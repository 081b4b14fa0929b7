import RehearsalTesting
import Sim

/// A user's account, production-style: runs on the simulator inside a simulation, on the pool outside.
actor Account: RehearsableActor {
    nonisolated let executor: any SerialExecutor
    private(set) var balance: Int

    init(_ name: String, balance: Int) {
        executor = RehearsableExecutor.make(name)
        self.balance = balance
    }

    func withdraw(_ amount: Int) { balance -= amount }
    func deposit(_ amount: Int) { balance += amount }

    /// The fix: check and act in one actor turn.
    func withdrawIfCovered(_ amount: Int) -> Bool {
        guard balance >= amount else { return false }
        balance -= amount
        return true
    }
}

/// The bug: check-then-act across an await (another transfer may withdraw in between).
actor Bank: RehearsableActor {
    nonisolated let executor = RehearsableExecutor.make("bank")
    private(set) var log: [Int] = []

    func transfer(_ amount: Int, from: Account, to: Account) async {
        guard await from.balance >= amount else { return }
        log.append(amount)  // back on the bank between the check and the act: another transfer may run here
        await from.withdraw(amount)
        await to.deposit(amount)
    }

    func safeTransfer(_ amount: Int, from: Account, to: Account) async {
        guard await from.withdrawIfCovered(amount) else { return }
        await to.deposit(amount)
    }
}

/// Two concurrent transfers of 80 out of an account holding 100; the balance must stay >= 0.
func twoTransfers(safe: Bool) async throws {
    let bank = Bank()
    let alice = Account("alice", balance: 100)
    let bob = Account("bob", balance: 0)
    let carol = Account("carol", balance: 0)
    async let first: Void = safe ? bank.safeTransfer(80, from: alice, to: bob) : bank.transfer(80, from: alice, to: bob)
    async let second: Void = safe ? bank.safeTransfer(80, from: alice, to: carol) : bank.transfer(80, from: alice, to: carol)
    _ = await (first, second)
    let balance = await alice.balance
    try Rehearsal.check(balance >= 0, "alice overdrawn: balance \(balance)")
}

extension SweepOptions {
    /// One strategy a seed: the tests' quick sweeps.
    static let randomOnly = SweepOptions(strategies: [.random])
}
