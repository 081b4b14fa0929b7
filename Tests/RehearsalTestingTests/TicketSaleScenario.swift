import Harness
import Sim

/// A user's own scenario: buyers race for the last tickets of a box office that checks the
/// stock, awaits the payment, then takes the ticket (check-then-act across an await).
struct TicketSaleScenario: Scenario {
    let name = "ticket-sale"
    let summary = "buyers race for the last ticket"
    static let buyers = ScenarioParameter("buyers", "concurrent buyers", default: 3, in: 1...20)
    static let noOversell = CheckDeclaration(.always, "no-oversell", "never more tickets sold than the office had")
    static let soldOut = CheckDeclaration(.sometimes, "sold-out", "some buyer was turned away")
    let parameters = [buyers]
    let operations = ["buy"]
    let variants: [String] = []
    let checks = [noOversell, soldOut]
    let usesBackend = false

    actor BoxOffice: RehearsableActor {
        nonisolated let executor = RehearsableExecutor.make("box-office")
        let payments = Payments()
        var stock = 1
        var sold = 0
        func buy() async -> Bool {
            guard stock > 0 else { return false }
            await payments.charge()
            stock -= 1
            sold += 1
            return true
        }
    }

    actor Payments: RehearsableActor {
        nonisolated let executor = RehearsableExecutor.make("payments")
        func charge() async { try? await Task.sleep(for: .milliseconds(20)) }
    }

    func run(_ context: ScenarioContext) async throws {
        let office = BoxOffice()
        await withTaskGroup(of: Bool.self) { group in
            for buyer in 0..<context.parameters[Self.buyers] {
                group.addTask { await context.measure("buy", user: "buyer\(buyer)") { await office.buy() } }
            }
            for await bought in group { context.sometimes(Self.soldOut, !bought) }
        }
        let sold = await office.sold
        context.always(Self.noOversell, sold <= 1, "sold \(sold) tickets of 1")
        try context.throwIfStopped()
    }
}
