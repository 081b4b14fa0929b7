@testable import RehearsalTesting
import Sim
import Testing

@Suite struct RefusalTests {
    @Test func withoutVirtualTimeASweepRecordsTheFixInsteadOfRunning() {
        let problem = "virtual time is not in effect: add -Xlinker --export-dynamic"
        withKnownIssue {
            #expect(!Rehearsal.virtualTimeInEffect(at: #_sourceLocation, problem: problem))
        } matching: { issue in issue.comments.contains { $0.rawValue == problem } }
        #expect(Rehearsal.virtualTimeInEffect(at: #_sourceLocation, problem: nil))
    }
}
