import Domain
import SimulatedFirebase
import Testing

/// FCM's collapse keys (docs/domain.md, "FCM"): a push still waiting for its device is replaced by
/// a newer one with the same key, which reaches the device no earlier than the replaced one would
/// have; a delivered push, another key or no key is never replaced.
@Suite struct ConformanceCollapseTests {
    /// Sends `keys` in order to one token, `gap` apart, each taking 10 s to reach the device; the
    /// outbox's pushes after, by title, and the collapses counted.
    static func send(_ keys: [String?], gap: Duration) throws -> (titles: [String], delivered: [Int64], collapsed: Int) {
        try onSimulator(seed: 161) { env in
            var faults = BackendFaults.none
            faults.fcmDelivery = LatencyModel(median: .seconds(5), tailProbability: 0, tailMax: .seconds(10))
            let backend = Backend(env: env, faults: faults)
            let start = env.clock.nowUnixNanoseconds
            for (index, key) in keys.enumerated() {
                if index > 0 { try await env.clock.sleep(for: gap) }
                let push = PushMessage(recipient: "u", type: "NEWS", title: "n\(index)", body: "", collapseKey: key)
                _ = try await backend.messaging.sendEachForMulticast(tokens: ["t"], message: push)
            }
            let records = backend.outbox.records
            return (records.map { $0.payload["title"] ?? "" }, records.map { ($0.deliveredAt.unixNanoseconds - start) / 1_000_000_000 },
                    backend.faultLedger.tallies[.fcmCollapse]?.observed ?? 0)
        }
    }

    @Test func aWaitingPushIsReplacedByTheNextWithItsKey() throws {
        let same = try Self.send(["k", "k"], gap: .milliseconds(1))
        #expect(same.titles == ["n1"] && same.collapsed == 1)
        let first = try Self.send(["k"], gap: .zero)
        #expect(same.delivered[0] >= first.delivered[0], "the newer push reaches the device no earlier than the one it replaced")
        for (keys, gap) in [(["k", "j"], Duration.milliseconds(1)), ([nil, nil], .milliseconds(1)), (["k", "k"], .seconds(11))] {
            let kept = try Self.send(keys, gap: gap)
            #expect(kept.titles == ["n0", "n1"] && kept.collapsed == 0, "\(keys) \(gap): \(kept)")
        }
    }
}
