import Bank
import Harness
import Sim

/// Two customers pay out of one account at once; the account must never go negative.
public struct TransferRaceScenario: Scenario {
    static let amount = ScenarioParameter("amount", "each transfer's amount (of 100)", default: 80, in: 1...100)
    static let noOverdraft = CheckDeclaration(.always, "no-overdraft", "the shared account never goes negative")
    public init() {}
    public let name = "transfer-race"
    public let summary = "two concurrent transfers out of one account; no overdraft"
    public let parameters = [amount]
    public let operations = ["transfer"]
    public let variants = ["check-then-act"]
    public let checks = [noOverdraft]
    public let usesBackend = false

    public func run(_ context: ScenarioContext) async throws {
        let bank = Bank(checksThenActs: context.variant == "check-then-act")
        let shared = Account("shared", balance: 100)
        let amount = context.parameters[Self.amount]
        await withTaskGroup(of: Void.self) { group in
            for payee in ["bob", "carol"] {
                group.addTask {
                    let to = Account(payee, balance: 0)
                    _ = await context.measure("transfer", user: payee) { await bank.transfer(amount, from: shared, to: to) }
                }
            }
        }
        let balance = await shared.balance
        context.always(Self.noOverdraft, balance >= 0, "shared account at \(balance)")
        try context.throwIfStopped()
    }
}
