@testable import Domain
@testable import SimulatedFirebase
import Testing

/// The daily reminder (docs/domain.md, "SafeNSound daily reminder"): local fire instants across the
/// 2026 DST changes against known answers, and `sendDailyReminders` run tick by tick.
@Suite("SafeNSound daily reminder")
struct SafeNSoundDailyReminderTests {
    /// Zone, local date, hour, minute → the UTC instant the reminder is due (Unix seconds), from the
    /// tz database's 2026 rules: a skipped time read with the offset before the change, a repeated
    /// one at its first occurrence.
    static let knownAnswers: [(String, String, Int, Int, Int64)] = [
        ("America/Los_Angeles", "2026-03-07", 9, 0, 1_772_902_800),  // 2026-03-07T17:00Z = 09:00 PST
        ("America/Los_Angeles", "2026-03-08", 1, 30, 1_772_962_200),  // 2026-03-08T09:30Z = 01:30 PST
        ("America/Los_Angeles", "2026-03-08", 2, 30, 1_772_965_800),  // skipped: 2026-03-08T10:30Z = 03:30 PDT
        ("America/Los_Angeles", "2026-03-08", 3, 30, 1_772_965_800),  // 2026-03-08T10:30Z = 03:30 PDT
        ("America/Los_Angeles", "2026-03-08", 9, 0, 1_772_985_600),  // 2026-03-08T16:00Z = 09:00 PDT
        ("America/Los_Angeles", "2026-10-31", 9, 0, 1_793_462_400),  // 2026-10-31T16:00Z = 09:00 PDT
        ("America/Los_Angeles", "2026-11-01", 1, 30, 1_793_521_800),  // repeated: 2026-11-01T08:30Z = 01:30 PDT (not PST)
        ("America/Los_Angeles", "2026-11-01", 9, 0, 1_793_552_400),  // 2026-11-01T17:00Z = 09:00 PST
        ("Europe/London", "2026-03-29", 0, 30, 1_774_744_200),  // 2026-03-29T00:30Z = 00:30 GMT
        ("Europe/London", "2026-03-29", 1, 30, 1_774_747_800),  // skipped: 2026-03-29T01:30Z = 02:30 BST
        ("Europe/London", "2026-03-29", 9, 0, 1_774_771_200),  // 2026-03-29T08:00Z = 09:00 BST
        ("Europe/London", "2026-10-24", 9, 0, 1_792_828_800),  // 2026-10-24T08:00Z = 09:00 BST
        ("Europe/London", "2026-10-25", 1, 30, 1_792_888_200),  // repeated: 2026-10-25T00:30Z = 01:30 BST
        ("Europe/London", "2026-10-25", 9, 0, 1_792_918_800),  // 2026-10-25T09:00Z = 09:00 GMT
        ("Australia/Sydney", "2026-04-05", 2, 30, 1_775_316_600),  // repeated: 2026-04-04T15:30Z = 02:30 AEDT
        ("Australia/Sydney", "2026-04-05", 9, 0, 1_775_343_600),  // 2026-04-04T23:00Z = 09:00 AEST
        ("Australia/Sydney", "2026-10-04", 2, 30, 1_791_045_000),  // skipped: 2026-10-03T16:30Z = 03:30 AEDT
        ("Australia/Sydney", "2026-10-04", 9, 0, 1_791_064_800),  // 2026-10-03T22:00Z = 09:00 AEDT
        ("Asia/Tokyo", "2026-03-08", 9, 0, 1_772_928_000),  // 2026-03-08T00:00Z = 09:00 JST
    ]

    @Test("Fire instants across the 2026 DST changes match the known answers")
    func knownAnswerFireInstants() throws {
        for (zone, date, hour, minute, expected) in Self.knownAnswers {
            let day = try #require(SafeNSoundLocalDate(date))
            let time = try #require(SafeNSoundReminderTime(hour: hour, minute: minute))
            let fire = SafeNSoundLocalCalendar.instant(of: time, on: day, in: zone)
            #expect(fire.unixNanoseconds == expected * 1_000_000_000, "\(zone) \(date) \(time)")
            // The instant is on that local date (a skipped time lands after the jump, the same day).
            #expect(SafeNSoundLocalCalendar.localDate(of: fire, in: zone) == day, "\(zone) \(date) \(time)")
        }
    }

    @Test("Local dates: text round trip, order, neighbours and validation")
    func localDates() throws {
        let day = try #require(SafeNSoundLocalDate("2026-03-08"))
        #expect(day.description == "2026-03-08")
        #expect(day.daysSinceEpoch == 20_520)
        #expect(day.previous.description == "2026-03-07" && day.next.description == "2026-03-09")
        #expect(SafeNSoundLocalDate(year: 2024, month: 2, day: 29)?.next.description == "2024-03-01")
        #expect(SafeNSoundLocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(SafeNSoundLocalDate("2026-3-8") == nil && SafeNSoundLocalDate("nope") == nil)
        #expect(SafeNSoundLocalDate(year: 1969, month: 12, day: 31)?.daysSinceEpoch == -1)
        #expect(SafeNSoundReminderTime(hour: 24, minute: 0) == nil && SafeNSoundReminderTime(hour: 9, minute: 60) == nil)
        #expect(SafeNSoundReminderTime(hour: 9, minute: 5)?.description == "09:05")
    }

    /// Runs `sendDailyReminders` every 5 minutes from `from` for `hours` (each tick twice with
    /// `duplicateTicks`, concurrently), for users (uid, zone, hh, mm); `checkIns` are (uid, Unix
    /// seconds) made on the way. Returns each user's reminder instants (Unix seconds).
    private func reminders(
        _ variant: SafeNSoundVariant, from: Int64, hours: Int, users: [(String, String, Int, Int)], disabled: Set<String> = [],
        checkIns: [(String, Int64)] = [], duplicateTicks: Bool = false
    ) async throws -> [String: [Int64]] {
        let backend = makeBackend()
        var configuration = SafeNSoundConfiguration(variant: variant)
        configuration.dailyReminderInterval = .seconds(300)
        let app = SafeNSoundApp.deployed(on: backend, configuration: configuration)
        let clock = backend.env.clock
        let start = Timestamp(unixNanoseconds: from * 1_000_000_000)
        try await clock.sleep(until: start - .seconds(3600))
        for (uid, zone, hour, minute) in users {
            var user = SafeNSoundUser(
                userId: uid, name: uid, fcmToken: "tok-\(uid)", emergencyContactEmails: ["c@example.com"],
                checkInThresholdHours: 72, lastHeartbeat: clock.now, timeZoneIdentifier: zone)
            user.dailyReminderEnabled = !disabled.contains(uid)
            user.dailyReminderTime = SafeNSoundReminderTime(hour: hour, minute: minute)
            try await app.registerUser(user)
        }
        var pending = checkIns.sorted { $0.1 < $1.1 }
        for step in 0...(hours * 12) {
            let tick = start + .seconds(Int64(step) * 300)
            while let next = pending.first, next.1 * 1_000_000_000 <= tick.unixNanoseconds {
                pending.removeFirst()
                try await clock.sleep(until: Timestamp(unixNanoseconds: next.1 * 1_000_000_000))
                let zone = users.first { $0.0 == next.0 }!.1
                _ = try await app.recordHeartbeat(authenticatedUserId: next.0, request: SafeNSoundHeartbeatRequest(userId: next.0, timeZoneIdentifier: zone, deviceModel: "test"))
            }
            try await clock.sleep(until: tick)
            if duplicateTicks {
                async let first: Void = backend.functions.runScheduled(SafeNSoundApp.sendDailyRemindersName, at: tick)
                async let second: Void = backend.functions.runScheduled(SafeNSoundApp.sendDailyRemindersName, at: tick, isDuplicate: true)
                _ = try await (first, second)
            } else {
                try await backend.functions.runScheduled(SafeNSoundApp.sendDailyRemindersName, at: tick)
            }
        }
        var sent: [String: [Int64]] = [:]
        for record in backend.outbox.records where record.type == "SAFENSOUND_DAILY_REMINDER" {
            sent[String(record.recipient), default: []].append(record.sentAt.unixNanoseconds / 1_000_000_000)
        }
        return sent
    }

    /// 2026-03-07T08:00Z (midnight PST) and 2026-10-31T07:00Z (midnight PDT).
    static let springStart: Int64 = 1_772_870_400, fallStart: Int64 = 1_793_430_000

    @Test("Careful across the US spring-forward: 09:00 local each day, 02:30 at 03:30 PDT on the day it is skipped")
    func carefulSpringForward() async throws {
        let sent = try await reminders(.careful, from: Self.springStart, hours: 72, users: [
            ("a", "America/Los_Angeles", 9, 0), ("b", "America/Los_Angeles", 2, 30), ("t", "Asia/Tokyo", 9, 0), ("off", "America/Los_Angeles", 9, 0),
        ], disabled: ["off"])
        #expect(sent["a"] == [1_772_902_800, 1_772_985_600, 1_773_072_000])  // 17:00Z PST, then 16:00Z PDT
        #expect(sent["b"] == [1_772_879_400, 1_772_965_800, 1_773_048_600])  // 02:30 PST, 03:30 PDT (skipped day), 02:30 PDT
        #expect(sent["t"]?.count == 3)
        #expect(sent["off"] == nil)
    }

    @Test("Careful across the US fall-back: a repeated 01:30 is sent once, at its first occurrence")
    func carefulFallBack() async throws {
        let sent = try await reminders(.careful, from: Self.fallStart, hours: 72, users: [("c", "America/Los_Angeles", 1, 30)], duplicateTicks: true)
        #expect(sent["c"] == [1_793_435_400, 1_793_521_800, 1_793_611_800])  // 08:30Z PDT, 08:30Z PDT (first), 09:30Z PST
    }

    @Test("A check-in earlier the same local day skips that day's reminder; one after it does not")
    func checkInSkipsTheDay() async throws {
        // 2026-03-07: a check-in at 08:00 PST (16:00Z) skips the 09:00 reminder; 2026-03-08: one at 10:00 PDT comes after it.
        let sent = try await reminders(.careful, from: Self.springStart, hours: 48, users: [("a", "America/Los_Angeles", 9, 0)],
                                       checkIns: [("a", 1_772_899_200), ("a", 1_772_989_200)])
        #expect(sent["a"] == [1_772_985_600])
    }

    @Test("reminder-every-24h: the day after the spring-forward comes at 10:00 PDT")
    func every24hIsAnHourOff() async throws {
        let sent = try await reminders(.reminderEvery24h, from: Self.springStart, hours: 48, users: [("a", "America/Los_Angeles", 9, 0)])
        #expect(sent["a"] == [1_772_902_800, 1_772_989_200])  // 17:00Z = 09:00 PST, then 17:00Z = 10:00 PDT
    }

    @Test("reminder-utc-time: 09:00 UTC, 01:00 in Los Angeles")
    func utcTime() async throws {
        let sent = try await reminders(.reminderUTCTime, from: Self.springStart, hours: 24, users: [("a", "America/Los_Angeles", 9, 0)])
        #expect(sent["a"] == [1_772_874_000])  // 2026-03-07T09:00Z = 01:00 PST
    }

    @Test("reminder-local-clock-match: none on the day 02:30 is skipped, two on the day 01:30 repeats")
    func clockMatch() async throws {
        let spring = try await reminders(.reminderLocalClockMatch, from: Self.springStart, hours: 72, users: [("b", "America/Los_Angeles", 2, 30)])
        #expect(spring["b"] == [1_772_879_400, 1_773_048_600])  // 7 March and 9 March only
        let fall = try await reminders(.reminderLocalClockMatch, from: Self.fallStart, hours: 48, users: [("c", "America/Los_Angeles", 1, 30)])
        #expect(fall["c"] == [1_793_435_400, 1_793_521_800, 1_793_525_400])  // 1 November twice: 08:30Z PDT and 09:30Z PST
    }
}
