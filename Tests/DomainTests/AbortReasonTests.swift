@testable import Domain
@testable import SimulatedFirebase
import Testing

/// The typed abort reasons keep Firestore's messages word for word (reports and timelines quote
/// them), although the text is now built only when read.
@Suite struct AbortReasonTests {
    @Test(arguments: [
        (AbortReason.contention, "Too much contention on these documents"),
        (.concurrentCommit(DocumentPath("honors", "h1")), "honors/h1 is being committed by a concurrent transaction"),
        (.versionChanged(DocumentPath("honors/h1/bids", "b7"), read: 3, current: 5),
         "honors/h1/bids/b7 changed since the transaction read it (version 3 → 5)"),
        (.writeRate(DocumentPath("honors", "h1"), perSecond: 1.0), "write rate on honors/h1 exceeds ~1.0/s"),
        (.readChanged(DocumentPath("users", "u1")), "users/u1 changed between two reads of one transaction"),
        (.conflict("read a like without its count mid-commit"), "read a like without its count mid-commit"),
    ])
    func messageIsFirestoresText(reason: AbortReason, text: String) {
        #expect(reason.description == text)
        #expect("\(BackendError.aborted(reason))".contains(text))
    }
}
