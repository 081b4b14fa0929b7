import Domain
import SimulatedFirebase
import Testing

/// What becomes of a push on its way to an iPhone (docs/domain.md, "FCM"): APNs stores one
/// notification per app for a device that is away, so a newer push replaces the stored one and
/// arrives when the device returns; a push that would wait past its time to live is dropped and
/// replaces nothing; a push with a collapse key replaces one with that key still on its way.
@Suite struct ConformancePushDeliveryTests {
    /// One push to send at `at` seconds: whether the device is away for it (and until `arrives`),
    /// its collapse key and its time to live in seconds.
    struct Push {
        var at: Int64
        var arrives: Int64
        var away = false
        var key: String?
        var ttl: Int64 = 28 * 24 * 3600
    }

    /// Appends `pushes` in order to one token's outbox; each push's title and fate after the last,
    /// and when each reaches the device.
    static func send(_ pushes: [Push], token: (Int) -> String = { _ in "t" }) -> (fates: [String], arrivals: [Int64]) {
        let outbox = Outbox()
        for (index, push) in pushes.enumerated() {
            let now = Timestamp(unixNanoseconds: push.at * 1_000_000_000)
            let record = OutboxRecord(
                channel: .push, recipient: "u", type: "NEWS", payload: ["title": "n\(index)"], sentAt: now,
                deliveredAt: Timestamp(unixNanoseconds: push.arrives * 1_000_000_000), token: token(index),
                collapseKey: push.key, heldForDevice: push.away)
            _ = outbox.appendPush(record, timeToLive: .seconds(push.ttl), now: now, horizon: now - .seconds(300))
        }
        return (outbox.records.map { "\($0.payload["title"]!)=\($0.fate.rawValue)" },
                outbox.records.map { $0.deliveredAt.unixNanoseconds / 1_000_000_000 })
    }

    @Test func apnsKeepsOneNotificationForAnAwayDevice() {
        // n0 waits for the device until 100 s; n1 and n2 come while it is away: only n2 shows, at 100 s.
        let away = Self.send([Push(at: 0, arrives: 100, away: true), Push(at: 10, arrives: 11), Push(at: 20, arrives: 21)])
        #expect(away.fates == ["n0=replaced", "n1=replaced", "n2=delivered"])
        #expect(away.arrivals == [100, 100, 100], "the newer push arrives when the device returns, no earlier")
        // A device that is back (n0 arrived at 5 s), pushes in flight to a device that is there,
        // and another device's stored push are never replaced.
        #expect(Self.send([Push(at: 0, arrives: 5, away: true), Push(at: 10, arrives: 11)]).fates == ["n0=delivered", "n1=delivered"])
        #expect(Self.send([Push(at: 0, arrives: 1), Push(at: 0, arrives: 1)]).fates == ["n0=delivered", "n1=delivered"])
        #expect(Self.send([Push(at: 0, arrives: 100, away: true), Push(at: 10, arrives: 11)], token: { "t\($0)" }).fates
                == ["n0=delivered", "n1=delivered"])
    }

    @Test func aPushPastItsTimeToLiveIsDroppedAndReplacesNothing() {
        // Zero: "now or never": dropped for an away device, delivered to one that is there.
        #expect(Self.send([Push(at: 0, arrives: 100, away: true, ttl: 0)]).fates == ["n0=expired"])
        #expect(Self.send([Push(at: 0, arrives: 1, ttl: 0)]).fates == ["n0=delivered"])
        // A push sent while another is stored waits as long: past its TTL it is dropped, and the stored one stays.
        #expect(Self.send([Push(at: 0, arrives: 100, away: true), Push(at: 10, arrives: 11, ttl: 60)]).fates == ["n0=delivered", "n1=expired"])
        #expect(Self.send([Push(at: 0, arrives: 100, away: true), Push(at: 10, arrives: 11, ttl: 90)]).fates == ["n0=replaced", "n1=delivered"])
    }

    @Test func aCollapseKeyReplacesAPushStillOnItsWay() {
        #expect(Self.send([Push(at: 0, arrives: 2, key: "k"), Push(at: 1, arrives: 2, key: "k")]).fates == ["n0=collapsed", "n1=delivered"])
        for pushes in [[Push(at: 0, arrives: 2, key: "k"), Push(at: 1, arrives: 2, key: "j")],
                       [Push(at: 0, arrives: 2, key: "k"), Push(at: 3, arrives: 4, key: "k")]] {
            #expect(Self.send(pushes).fates == ["n0=delivered", "n1=delivered"], "another key, or a push already delivered")
        }
    }

    /// Through FCM: a wait past the delivery model's body (2 × median) is an away device, and the
    /// ledger counts what the outbox did.
    @Test func messagingHoldsPushesForAwayDevicesAndCountsWhatHappens() throws {
        let counts = try onSimulator(seed: 161) { env in
            var faults = BackendFaults.none
            faults.fcmDelivery = LatencyModel(median: .milliseconds(500), tailProbability: 1, tailMax: .seconds(300))  // always away
            let backend = Backend(env: env, faults: faults)
            for (index, ttl) in [nil, nil, Duration.zero].enumerated() {
                let push = PushMessage(recipient: "u", type: "NEWS", title: "n\(index)", body: "", timeToLive: ttl)
                _ = try await backend.messaging.sendEachForMulticast(tokens: ["t"], message: push)
            }
            let tallies = backend.faultLedger.tallies
            return (backend.outbox.records.map(\.fate), tallies[.apnsReplaced]?.observed, tallies[.fcmTTLExpired]?.observed)
        }
        #expect(counts.0 == [.replaced, .delivered, .expired])
        #expect(counts.1 == 1 && counts.2 == 1)
    }
}
