@testable import Domain
import Foundation
@testable import SimulatedFirebase
import Testing

/// The actor store's indices (alerts by slot, the due index by user index) and the email
/// formatter's minute cache: each keeps what the plain version did, checked against a plain
/// computation (a fresh `DateFormatter`, expectations worked by hand).
@Suite struct SafeNSoundStoreIndexTests {
    static func alert(_ id: String, user: String, dueSeconds: Int64) -> SafeNSoundScheduledAlert {
        let due = Timestamp(unixNanoseconds: testEpochUnixNanoseconds + dueSeconds * 1_000_000_000)
        return SafeNSoundScheduledAlert(
            alertId: id, userId: user, kind: .emailAlert, scheduledFor: due, status: .scheduled,
            createdAt: Timestamp(unixNanoseconds: testEpochUnixNanoseconds), windowLastHeartbeat: Timestamp(unixNanoseconds: testEpochUnixNanoseconds),
            claimedAt: nil)
    }

    static func at(_ seconds: Int64) -> Timestamp { Timestamp(unixNanoseconds: testEpochUnixNanoseconds + seconds * 1_000_000_000) }

    @Test func alertIdsMapToTheirOwnAlerts() async {
        let queue = SafeNSoundAlertQueue(environment: testEnvironment())
        #expect(await queue.createIfAbsent(Self.alert("a", user: "u1", dueSeconds: 20)))
        #expect(await queue.createIfAbsent(Self.alert("b", user: "u2", dueSeconds: 10)))
        #expect(await !queue.createIfAbsent(Self.alert("a", user: "u9", dueSeconds: 5)), "ALREADY_EXISTS")
        let claimed = await queue.claim("b", at: Self.at(10), lease: .seconds(60))
        #expect(claimed?.userId == "u2")
        #expect(await queue.claim("b", at: Self.at(11), lease: .seconds(60)) == nil, "held under its lease")
        // A held alert is still listed (its holder may have died), and the claim refuses it until the lease ends.
        #expect(await queue.dueAlerts(at: Self.at(30)).map(\.alertId) == ["b", "a"])
        #expect(await queue.claim("b", at: Self.at(30), lease: .seconds(60)) == nil)
        #expect(await queue.claim("b", at: Self.at(70), lease: .seconds(60))?.userId == "u2", "taken over once the lease ran out")
        await queue.recordDelivery("a", to: "x@example.com")
        await queue.recordDelivery("a", to: "x@example.com")
        #expect(await queue.alert("a")?.deliveredTo == ["x@example.com"])
        #expect(await queue.allAlerts().map(\.alertId) == ["a", "b"])
    }

    /// A sender whose lease expired may finish late with `scheduled` after another run sent the
    /// alert: the alert stays closed (no second send, no per-user cancel), as before slots.
    @Test func aClosedAlertStaysClosedAfterALateFailure() async {
        let queue = SafeNSoundAlertQueue(environment: testEnvironment())
        _ = await queue.createIfAbsent(Self.alert("a", user: "u1", dueSeconds: 10))
        _ = await queue.dueAlerts(at: Self.at(10))
        _ = await queue.claim("a", at: Self.at(10), lease: .seconds(60))
        _ = await queue.claim("a", at: Self.at(100), lease: .seconds(60))  // lease expired: a second holder
        await queue.finish("a", as: .sent)
        await queue.finish("a", as: .scheduled)  // the first holder's send failed
        #expect(await queue.dueAlerts(at: Self.at(200)).isEmpty)
        #expect(await queue.cancelPending(userId: "u1") == 0)
    }

    @Test func cancelAndRescheduleKeepTheDueQueryExact() async {
        let queue = SafeNSoundAlertQueue(environment: testEnvironment())
        for (index, due) in [30, 10, 20, 10].enumerated() {
            _ = await queue.createIfAbsent(Self.alert("id\(index)", user: index % 2 == 0 ? "even" : "odd", dueSeconds: Int64(due)))
        }
        await queue.reschedule("id2", to: Self.at(5))
        #expect(await queue.dueAlerts(at: Self.at(10)).map(\.alertId) == ["id2", "id1", "id3"])
        #expect(await queue.cancelPending(userId: "odd") == 2)
        #expect(await queue.dueAlerts(at: Self.at(40)).map(\.alertId) == ["id2", "id0"])
        #expect(await queue.cancelPending(userId: "odd") == 0)
    }

    @Test func dueIndexKeepsTheEarliestRequestAndTakesInOrder() async {
        let index = SafeNSoundDueIndex(environment: testEnvironment(), slotWidth: .seconds(1_800))
        await index.schedule("u1", at: Self.at(100))
        await index.schedule("u2", at: Self.at(50))
        await index.schedule("u1", at: Self.at(5_000))  // later: the earlier entry stays
        await index.schedule("u3", at: Self.at(4_000))
        await index.schedule("u3", at: Self.at(40))  // earlier: replaces, the old bucket entry goes stale
        #expect(await index.count == 3)
        let taken = await index.takeDue(through: Self.at(100), now: Self.at(0), lease: nil)
        #expect(taken.map(\.userId) == ["u3", "u2", "u1"])
        #expect(taken.map(\.due) == [Self.at(40), Self.at(50), Self.at(100)])
        #expect(await index.count == 0)
        #expect(await index.takeDue(through: Self.at(10_000), now: Self.at(0), lease: nil).isEmpty, "stale entries are not taken")
        await index.schedule("u1", at: Self.at(9_000))
        #expect(await index.takeDue(through: Self.at(10_000), now: Self.at(0), lease: nil).map(\.userId) == ["u1"])
    }

    /// A leased take keeps the entries: an overlapping run does not take them, a run after the
    /// lease does (the one that took them died), and `finish` removes them or reschedules them,
    /// keeping an earlier visit asked for meanwhile.
    @Test func dueIndexLeasesWhatItTakesUntilFinished() async {
        let index = SafeNSoundDueIndex(environment: testEnvironment(), slotWidth: .seconds(1_800))
        await index.schedule("u1", at: Self.at(100))
        await index.schedule("u2", at: Self.at(200))
        let lease = Duration.seconds(600)
        #expect(await index.takeDue(through: Self.at(300), now: Self.at(300), lease: lease).map(\.userId) == ["u1", "u2"])
        #expect(await index.count == 2, "leased entries stay")
        #expect(await index.takeDue(through: Self.at(400), now: Self.at(400), lease: lease).isEmpty, "an overlapping run takes no leased user")
        await index.finish("u1", taken: Self.at(100), next: nil)
        await index.schedule("u2", at: Self.at(150))  // a heartbeat asks for an earlier visit while u2 is held
        await index.finish("u2", taken: Self.at(200), next: Self.at(5_000))
        #expect(await index.count == 1)
        let later = await index.takeDue(through: Self.at(2_000), now: Self.at(2_000), lease: lease)
        #expect(later.map(\.userId) == ["u2"] && later.map(\.due) == [Self.at(150)], "the earlier request stays")
        // u2's run dies without finishing: after the lease the next run takes u2 again.
        #expect(await index.takeDue(through: Self.at(2_000), now: Self.at(2_000) + lease, lease: lease).map(\.userId) == ["u2"])
    }

    /// The minute cache against a fresh formatter, on seconds inside minutes, around DST changes,
    /// in zones with half- and quarter-hour offsets, and before 1980 (Liberia's −0:44:30).
    @Test func minuteCacheAgreesWithAFreshFormatter() {
        let zones = ["America/Los_Angeles", "America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata",
                     "Asia/Kathmandu", "Pacific/Chatham", "Africa/Monrovia", "UTC"]
        // UTC midnights of days with a change: US spring and fall 2026, Liberia's last offset
        // with seconds (1972, uncached), EU spring 2024, Sydney's fall 2026.
        let days: [Int64] = [1_772_928_000, 1_793_491_200, 63_504_000, 1_711_843_200, 1_775_260_800]
        var checked = 0
        for zone in zones {
            let formatter = DateFormatter()  // a fresh one, not the cache's
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: zone)!
            formatter.dateFormat = SafeNSoundLastCheckInFormatter.localPattern
            for day in days {
                for step in stride(from: Int64(0), to: 48 * 3_600, by: 1_237) {
                    for seconds in [day + step, day + step / 60 * 60, day + step / 60 * 60 + 59] {
                        let instant = Timestamp(unixNanoseconds: seconds * 1_000_000_000)
                        let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
                        #expect(SafeNSoundLastCheckInFormatter.format(instant, timeZoneIdentifier: zone) == expected, "\(zone) \(seconds)")
                        #expect(SafeNSoundLastCheckInFormatter.format(instant, timeZoneIdentifier: zone) == expected, "cached: \(zone) \(seconds)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 2_000)
    }
}
