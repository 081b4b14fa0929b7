import Domain
import SimulatedFirebase
import Testing

/// An outbox that keeps only counts (what load runs use) changes nothing but memory: the same
/// trace and documents, the same number of messages, and the delivery-time draw still made.
@Suite struct OutboxRetentionTests {
    @Test func countsOnlyOutboxKeepsTheRunAndTheCounts() {
        for seed in UInt64(1)...8 {
            let kept = DocumentParkingTests.auction(seed: seed, threshold: 1_000_000, outbox: .records)
            let counted = DocumentParkingTests.auction(seed: seed, threshold: 1_000_000, outbox: .counts)
            #expect(counted.trace == kept.trace, "seed \(seed): keeping only counts changed the trace")
            #expect(counted.steps == kept.steps)
            // The kept run's state ends with one line per message; the counted run has only the documents.
            #expect(kept.messages > 0, "seed \(seed): the workload sent no message")
            #expect(counted.messages == kept.messages, "seed \(seed): \(counted.messages) counted, \(kept.messages) kept")
            #expect(Array(kept.state.dropLast(kept.messages)) == counted.state, "seed \(seed): documents differ")
        }
    }
}
