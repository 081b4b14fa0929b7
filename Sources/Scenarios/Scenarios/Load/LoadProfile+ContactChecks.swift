import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

// contact-discovery's check for its load profile, judged on each discovery as it answers: what
// the user was told against the registrations confirmed before it started.
extension LoadProfile {
    /// One discovery of `person`'s book that answered `result`: every answered entry of a user
    /// whose registration was confirmed before it started (`before`) found as that user, nothing
    /// found but the book's users whose registration was confirmed or sent by the answer, and no
    /// more left unanswered than the numbers `person`'s requests carried beyond `quota`.
    static func judgeDiscovery(
        _ person: ContactDiscoveryScenario.Person, _ result: UFreeDiscoveryResult, before: Set<String>,
        registry: ContactDiscoveryScenario.Registry, quota: Int, _ checks: LoadCheckLog
    ) {
        let possible = registry.all.union(registry.unknown)
        let looked = person.book.filter(\.isNumber).prefix(max(0, person.numbers - result.unanswered))
        let expected = Set(looked.compactMap { entry in entry.owner.flatMap { before.contains($0) ? "\(entry.entry) → \($0)" : nil } })
        let allowed = Set(person.book.compactMap { entry in entry.owner.flatMap { possible.contains($0) ? "\(entry.entry) → \($0)" : nil } })
        let found = Set(result.matches.map { "\($0.entry) → \($0.userId)" })
        let missing = expected.subtracting(found).sorted(), extra = found.subtracting(allowed).sorted()
        let spent = max(0, registry.lookedUp(person.uid) - quota)
        checks.always(ContactDiscoveryScenario.Check.contactsFound, failure: missing.isEmpty && extra.isEmpty && result.unanswered <= spent ? nil
            : "\(person.uid) (\(person.region)) looked up \(person.book.count) contacts: missing \(missing.prefix(3)), unexpected \(extra.prefix(3)), unanswered \(result.unanswered)")
    }
}
