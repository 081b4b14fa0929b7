@testable import FirebaseHarness
import Foundation
@testable import Harness
@testable import Scenarios
import Testing

/// A timeline entry whose text is built when read (the hot notes of auction-race, the backend's
/// fault events) is the same entry as one given its text: in JSON, under `==` and hashing, and
/// in the failure story of a run whose notes were deferred.
@Suite struct TimelineEntryTests {
    init() { BuiltInScenarios.register() }

    @Test("a deferred entry encodes, compares and hashes as the entry given its text")
    func deferredIsTheSameEntry() throws {
        let error: any Error = SampleError(amount: 12.5)
        let given = TimelineEntry(user: "u1", timeNanoseconds: 42, event: "bid failed: \(error)", step: 7)
        let calls = LockedCounter()
        let deferred = TimelineEntry(user: "u1", timeNanoseconds: 42, step: 7, rendering: {
            calls.increment()
            return "bid failed: \(error)"
        })
        #expect(calls.value == 0)  // nothing built until read
        #expect(deferred == given)
        #expect(Set<TimelineEntry>([deferred, given]).count == 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(deferred) == encoder.encode(given))
        let decoded = try JSONDecoder().decode(TimelineEntry.self, from: encoder.encode(deferred))
        #expect(decoded == given && decoded.event == given.event && decoded.step == 7)
        #expect(calls.value > 0)
        // A fault event has no step: the key is left out, as before.
        let fault = TimelineEntry(user: "backend", timeNanoseconds: 1, step: nil, rendering: { "fault x y" })
        #expect(String(decoding: try encoder.encode(fault), as: UTF8.self) == #"{"event":"fault x y","timeNanoseconds":1,"user":"backend"}"#)
    }

    @Test("an auction-race report shows the deferred notes' and faults' text")
    func reportShowsDeferredNotes() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "auction-race", seed: 1))
        #expect(report.timeline.contains { $0.event.hasPrefix("bid h0 ") })
        #expect(report.timeline.contains { $0.event.hasPrefix("bid failed: ") })
        #expect(report.timeline.contains { $0.user == "backend" && $0.event.hasPrefix("fault ") })
        #expect(report.timeline.allSatisfy { !$0.event.isEmpty })
    }
}

/// An error whose text is built by interpolation (as a failed bid's is).
private struct SampleError: Error {
    let amount: Double
}

/// A counter closures can share.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
