@testable import FirestoreREST
import SimulatedFirebase
import Testing

/// What a commit's answer says the server owes each trigger: one event per document it changed
/// (update time = commit time), none for a write that changed nothing, deletes apart.
@Suite struct TriggerExpectationTests {
    private let commit = Timestamp(unixNanoseconds: 2_000)
    private let earlier = Timestamp(unixNanoseconds: 1_000)

    @Test func eachChangedDocumentOwesEachMatchingTriggerOneEvent() {
        let expectation = TriggerExpectation()
        expectation.deploy("onBid", collection: "honors")
        expectation.deploy("onNotification", collection: "users/{uid}/notifications")
        let paths = [DocumentPath("honors", "h1"), DocumentPath("honors", "h2"), DocumentPath("users/u1/notifications", "n1"), DocumentPath("posts", "p1")]
        expectation.record(paths, deletes: [false, false, false, false], commitTime: commit, updateTimes: [commit, earlier, commit, commit])
        #expect(expectation.owed["onBid"] == TriggerExpectation.Owed(changes: 1, deletes: 0))  // h2 changed nothing
        #expect(expectation.owed["onNotification"] == TriggerExpectation.Owed(changes: 1, deletes: 0))
        #expect(expectation.owed.count == 2)  // posts has no trigger
    }

    @Test func aDocumentWrittenTwiceInOneCommitOwesOneEventAndDeletesAreCountedApart() {
        let expectation = TriggerExpectation()
        expectation.deploy("onHonor", collection: "honors")
        let h1 = DocumentPath("honors", "h1"), h2 = DocumentPath("honors", "h2")
        expectation.record([h1, h1, h2], deletes: [false, false, true], commitTime: commit, updateTimes: [commit, commit, nil])
        #expect(expectation.owed["onHonor"] == TriggerExpectation.Owed(changes: 1, deletes: 1))
        // A failed commit (no commit time) owes nothing.
        expectation.record([h1], deletes: [false], commitTime: nil, updateTimes: [])
        #expect(expectation.owed["onHonor"]?.changes == 1)
    }
}
