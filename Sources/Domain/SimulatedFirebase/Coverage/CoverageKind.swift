/// The kinds of backend code a coverage table counts: Cloud Functions by how they are started
/// (HTTPS callable, Firestore trigger, scheduled job) and security rules by collection pattern.
public enum CoverageKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case callable
    case trigger
    case scheduledJob = "scheduled-job"
    case rule

    /// Declaration order (callables, triggers, scheduled jobs, rules).
    public static func < (a: CoverageKind, b: CoverageKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
