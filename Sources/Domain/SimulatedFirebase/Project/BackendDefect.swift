/// A planted defect of the simulated backend itself that makes it *kinder* than production, for
/// testing the harness: a sweep of the careful design over such a backend must fail (its fault
/// ledger shows the fault drawn but not delivered), never pass quietly.
public enum BackendDefect: String, Sendable, Hashable, Codable, CaseIterable {
    /// Duplicate trigger events are drawn but never delivered.
    case duplicatesNeverDelivered = "duplicates-never-delivered"
    /// The reorder window is compared in seconds against a gap in nanoseconds, so no two writes
    /// ever count as close and triggers are never reordered.
    case reorderWindowUnitSlip = "reorder-window-unit-slip"
    /// Server transactions take no locks (an optimistic database, as the simulator once modelled
    /// every database): a design that holds a transaction open across a write of its own passes.
    case optimisticServerTransactions = "optimistic-server-transactions"
}
