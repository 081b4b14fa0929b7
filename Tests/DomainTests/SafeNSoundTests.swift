@testable import Domain
@testable import SimulatedFirebase
import Testing

/// A messenger that records like the outbox but holds the first delivery at a gate.
actor GatedMessenger: SafeNSoundMessenger {
    let gate = AppsTestGate()
    private(set) var sent: [SafeNSoundMessage] = []
    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        await gate.pass()
        sent.append(message)
    }
}

/// Builds a SafeNSound app on a manual clock; hour 0 is Jan 13, 2026 06:00 UTC (Jan 12, 10:00 PM PST).
struct SafeNSoundHarness {
    let test: AppsTestEnvironment
    let app: SafeNSoundApp
    let outbox: SafeNSoundOutbox

    init(variant: SafeNSoundVariant = .careful, leadHours: Int = 3, epochUnixSeconds: Int64 = 1_768_284_000,
         seed: UInt64 = 42, probe: SafeNSoundProbe = SafeNSoundProbe(), messenger: (any SafeNSoundMessenger)? = nil) {
        test = AppsTestEnvironment(epochUnixSeconds: epochUnixSeconds, seed: seed)
        outbox = SafeNSoundOutbox(environment: test.environment)
        app = SafeNSoundApp(
            environment: test.environment,
            configuration: SafeNSoundConfiguration(preNotificationLeadHours: leadHours, variant: variant),
            messenger: messenger ?? outbox, probe: probe)
    }

    static func user(_ id: String, thresholdHours: Int = 72, at lastHeartbeat: Timestamp) -> SafeNSoundUser {
        SafeNSoundUser(
            userId: id, name: "Ana \(id)", fcmToken: "token-\(id)",
            emergencyContactEmails: ["contact1-\(id)@example.com", "contact2-\(id)@example.com"],
            checkInThresholdHours: thresholdHours, lastHeartbeat: lastHeartbeat,
            timeZoneIdentifier: "America/Los_Angeles")
    }

    /// Registers `id` and records its first heartbeat now.
    func onboard(_ id: String, thresholdHours: Int = 72) async throws {
        try await app.registerUser(Self.user(id, thresholdHours: thresholdHours, at: test.now))
        _ = try await app.recordHeartbeat(
            authenticatedUserId: id, request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles"))
    }

    /// Runs both scheduled functions on their own cadence (30 min, 2 min, aligned to hour 0) up to `hours`.
    func run(throughHours hours: Double, onTick: (Double) async -> Void = { _ in }) async {
        let elapsedMinutes = Int((Double(test.now.unixSeconds - 1_768_284_000) / 60).rounded(.up))
        let endMinutes = Int(hours * 60)
        var minute = (elapsedMinutes + 1) / 2 * 2  // the sender's grid: every even minute after hour 0
        while minute <= endMinutes {
            test.clock.advance(to: .seconds(Int64(minute) * 60))
            await onTick(Double(minute) / 60)
            if minute % 30 == 0 { await app.checkMissedHeartbeats() }
            await app.processScheduledAlerts()
            minute += 2
        }
    }

    /// Messages with the hour (after the epoch) each was sent at.
    func messagesByHour() async -> [(hours: Double, message: SafeNSoundMessage)] {
        await outbox.messages().map { (Double($0.sentAt.unixSeconds - 1_768_284_000) / 3600, $0) }
    }
}

@Suite("SafeNSound")
struct SafeNSoundTests {
    @Test("The seed's 72-hour timeline: nothing at 24/48 h, pre-notification at 69 h, email at 72 h")
    func seedTimeline72Hours() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        var alertsAt24 = -1, alertsAt48 = -1
        await h.run(throughHours: 73) { hour in
            if hour == 24.5 { alertsAt24 = await h.app.alerts().count }
            if hour == 48.5 { alertsAt48 = await h.app.alerts().count }
        }
        #expect(alertsAt24 == 0)
        #expect(alertsAt48 == 0)
        let messages = await h.messagesByHour()
        #expect(messages.count == 3)
        let push = try #require(messages.first)
        #expect(push.hours == 69)
        #expect(push.message.channel == .push)
        #expect(push.message.recipient == "token-u1")
        #expect(push.message.body == "Tap now or we'll email your contact in 3 hours")
        let emails = messages.dropFirst()
        #expect(emails.map(\.hours) == [72, 72])
        #expect(emails.map(\.message.recipient) == ["contact1-u1@example.com", "contact2-u1@example.com"])
        for email in emails {
            #expect(email.message.subject == "Ana u1 hasn't checked in for 72 hours")
            #expect(email.message.body.contains("Last check-in: Jan 12, 2026 at 10:00 PM PST"))
        }
        // One alert per kind per window, however often the check re-runs.
        #expect(await h.app.alerts().map(\.kind) == [.preNotification, .emailAlert])
    }

    @Test("Responding to the pre-notification at 69.5 h cancels the email")
    func heartbeatAfterPreNotificationCancelsEmail() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        await h.run(throughHours: 69.5)
        let response = try await h.app.recordHeartbeat(
            authenticatedUserId: "u1", request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles"))
        #expect(response.success)
        #expect(response.cancelledAlertCount == 0)  // the email alert is only created 30 min before it is due
        await h.run(throughHours: 100)
        let messages = await h.messagesByHour()
        #expect(messages.map(\.message.channel) == [.push])
        #expect(await h.app.alerts().map(\.status) == [.sent])
    }

    @Test("A heartbeat after the email alert was scheduled cancels it")
    func heartbeatCancelsScheduledEmail() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        await h.run(throughHours: 71.75)
        let response = try await h.app.recordHeartbeat(
            authenticatedUserId: "u1", request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles"))
        #expect(response.cancelledAlertCount == 1)
        await h.run(throughHours: 100)
        #expect(await h.messagesByHour().map(\.message.channel) == [.push])
        #expect(await h.app.alerts().map(\.status) == [.sent, .cancelled])
    }

    @Test("Email formats the last check-in in the user's time zone, across DST")
    func lastCheckInFormatting() {
        let jan = Timestamp(unixSeconds: 1_768_284_000)  // 2026-01-13T06:00Z
        #expect(SafeNSoundLastCheckInFormatter.format(jan, timeZoneIdentifier: "America/Los_Angeles") == "Jan 12, 2026 at 10:00 PM PST")
        let july = Timestamp(unixSeconds: 1_783_926_000)  // 2026-07-13T07:00Z
        #expect(SafeNSoundLastCheckInFormatter.format(july, timeZoneIdentifier: "America/Los_Angeles") == "Jul 13, 2026 at 12:00 AM PDT")
        #expect(SafeNSoundLastCheckInFormatter.formatInUTC(jan) == "Jan 13, 2026 at 6:00 AM UTC")
    }

    @Test("72 h is elapsed time across the March DST change; the wall-clock variant is an hour early")
    func elapsedTimeAcrossDST() {
        // Mar 6, 2026 10:00 PM PST; DST starts Mar 8 at 2 AM.
        let start = Timestamp(unixSeconds: 1_772_863_200)
        let user = SafeNSoundHarness.user("u1", at: start)
        let elapsed = SafeNSoundDeadlines.of(user, preNotificationLeadHours: 3)
        #expect(elapsed.emailDue - start == .seconds(72 * 3600))
        #expect(elapsed.preNotificationDue - start == .seconds(69 * 3600))
        let wallClock = SafeNSoundDeadlines.of(user, preNotificationLeadHours: 3, wallClock: true)
        #expect(wallClock.emailDue - start == .seconds(71 * 3600))
    }

    @Test("Pre-notification lead is a parameter (the seed's pseudo-code says 2 h)")
    func leadIsConfigurable() async throws {
        let h = SafeNSoundHarness(leadHours: 2)
        try await h.onboard("u1")
        await h.run(throughHours: 72)
        let messages = await h.messagesByHour()
        #expect(messages.first?.hours == 70)
        #expect(messages.first?.message.body == "Tap now or we'll email your contact in 2 hours")
    }

    @Test("24 h threshold: pre-notification at 21 h, email at 24 h")
    func threshold24() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1", thresholdHours: 24)
        await h.run(throughHours: 30)
        #expect(await h.messagesByHour().map(\.hours) == [21, 24, 24])
    }

    @Test("Pre-notification is on time even when the heartbeat is off the 30-minute grid")
    func preNotificationOnTimeOffGrid() async throws {
        let h = SafeNSoundHarness()
        h.test.advance(minutes: 10)
        try await h.onboard("u1")
        await h.run(throughHours: 73)
        let hours = await h.messagesByHour().map(\.hours)
        #expect(hours.first.map { abs($0 - (69 + 10.0 / 60)) < 1e-9 } == true)
    }

    @Test("Variant late-pre-notification sends the pre-notification 20 min late")
    func latePreNotificationVariant() async throws {
        let h = SafeNSoundHarness(variant: .latePreNotification)
        h.test.advance(minutes: 10)
        try await h.onboard("u1")
        await h.run(throughHours: 73)
        let hours = await h.messagesByHour().map(\.hours)
        #expect(hours.first == 69.5)
    }

    @Test("Re-running the 30-minute check (duplicate tick) creates no second alert")
    func duplicateTickCreatesNothing() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        h.test.set(hours: 72)
        let first = await h.app.checkMissedHeartbeats()
        let second = await h.app.checkMissedHeartbeats()
        #expect(first.createdAlertIds.count == 1)  // the email; the pre-notification is moot at the deadline
        #expect(second.createdAlertIds.isEmpty)
        let id = SafeNSoundScheduledAlert.deterministicId(
            userId: "u1", windowLastHeartbeat: Timestamp(unixSeconds: 1_768_284_000), kind: .emailAlert)
        #expect(first.createdAlertIds == [id])
    }

    @Test("Variant random-alert-id spams the contacts on every 30-minute run")
    func randomAlertIdSpams() async throws {
        let h = SafeNSoundHarness(variant: .randomAlertId)
        try await h.onboard("u1")
        await h.run(throughHours: 73)
        let emails = await h.messagesByHour().filter { $0.message.channel == .email }
        #expect(emails.count == 8)  // alerts made at 71.5, 72, 72.5 and 73 h, two contacts each
        let pushes = await h.messagesByHour().filter { $0.message.channel == .push }
        #expect(pushes.count > 1)
    }

    @Test("Overlapping sender runs send each alert once (transactional claim)")
    func overlappingSendersCareful() async throws {
        let messenger = GatedMessenger()
        let h = SafeNSoundHarness(messenger: messenger)
        try await h.onboard("u1")
        h.test.set(hours: 69)
        await h.app.checkMissedHeartbeats()
        let first = Task { await h.app.processScheduledAlerts() }
        #expect(await messenger.gate.waitUntilHolding())
        let second = await h.app.processScheduledAlerts()
        await messenger.gate.open()
        let firstReport = await first.value
        #expect(firstReport.sentAlertIds.count == 1)
        #expect(second.sentAlertIds.isEmpty)
        #expect(await messenger.sent.count == 1)
    }

    @Test("Variant unclaimed-sender double-sends under overlapping runs")
    func overlappingSendersUnclaimed() async throws {
        let messenger = GatedMessenger()
        let h = SafeNSoundHarness(variant: .unclaimedSender, messenger: messenger)
        try await h.onboard("u1")
        h.test.set(hours: 69)
        await h.app.checkMissedHeartbeats()
        let first = Task { await h.app.processScheduledAlerts() }
        #expect(await messenger.gate.waitUntilHolding())
        _ = await h.app.processScheduledAlerts()
        await messenger.gate.open()
        _ = await first.value
        let sent = await messenger.sent
        #expect(sent.count == 2)
        #expect(Set(sent.map(\.alertId)).count == 1)
    }

    @Test("A heartbeat landing between the check's read and its alert creation stops the email")
    func heartbeatDuringCheckCareful() async throws {
        try await heartbeatDuringCheck(variant: .careful, expectedEmails: 0)
    }

    @Test("Variant no-heartbeat-recheck emails contacts although the user checked in")
    func heartbeatDuringCheckNoRecheck() async throws {
        try await heartbeatDuringCheck(variant: .noHeartbeatRecheck, expectedEmails: 2)
    }

    private func heartbeatDuringCheck(variant: SafeNSoundVariant, expectedEmails: Int) async throws {
        let box = AppsTestBox<SafeNSoundApp>()
        let probe = SafeNSoundProbe(betweenCheckReadAndCreate: { userId in
            _ = try? await box.value?.recordHeartbeat(
                authenticatedUserId: userId, request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles"))
        })
        let h = SafeNSoundHarness(variant: variant, probe: probe)
        box.set(h.app)
        try await h.app.registerUser(SafeNSoundHarness.user("u1", at: h.test.now))
        h.test.set(hours: 72)
        await h.app.checkMissedHeartbeats()
        await h.app.processScheduledAlerts()
        let emails = await h.outbox.messages().filter { $0.channel == .email }
        #expect(emails.count == expectedEmails)
    }

    @Test("Two concurrent heartbeats: exactly one passes the 1-per-minute rate limit")
    func rateLimitIsAtomic() async throws {
        let outcomes = try await concurrentHeartbeats(variant: .careful)
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.contains(.rateLimited(userId: "u1", retryAfterSeconds: 60)))
    }

    @Test("Variant read-then-write-rate-limit lets both concurrent heartbeats pass")
    func rateLimitReadThenWrite() async throws {
        let outcomes = try await concurrentHeartbeats(variant: .readThenWriteRateLimit)
        #expect(outcomes == [nil, nil])
    }

    private func concurrentHeartbeats(variant: SafeNSoundVariant) async throws -> [SafeNSoundError?] {
        let barrier = AppsTestBarrier(count: 2)
        let h = SafeNSoundHarness(variant: variant, probe: SafeNSoundProbe(betweenRateLimitReadAndWrite: { _ in await barrier.arrive() }))
        try await h.app.registerUser(SafeNSoundHarness.user("u1", at: h.test.now))
        let request = SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles")
        async let a: SafeNSoundError? = { () async -> SafeNSoundError? in
            do { _ = try await h.app.recordHeartbeat(authenticatedUserId: "u1", request: request); return nil } catch { return error as? SafeNSoundError }
        }()
        async let b: SafeNSoundError? = { () async -> SafeNSoundError? in
            do { _ = try await h.app.recordHeartbeat(authenticatedUserId: "u1", request: request); return nil } catch { return error as? SafeNSoundError }
        }()
        return [await a, await b]
    }

    @Test("Rate limit: a second heartbeat within a minute is rejected, after a minute accepted")
    func rateLimitSequential() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        h.test.clock.advance(by: .seconds(59))
        let request = SafeNSoundHeartbeatRequest(timeZoneIdentifier: "Europe/London")
        await #expect(throws: SafeNSoundError.rateLimited(userId: "u1", retryAfterSeconds: 1)) {
            try await h.app.recordHeartbeat(authenticatedUserId: "u1", request: request)
        }
        h.test.clock.advance(by: .seconds(1))
        let response = try await h.app.recordHeartbeat(authenticatedUserId: "u1", request: request)
        #expect(response.lastHeartbeat == h.test.now)
        let user = try #require(await h.app.user("u1"))
        #expect(user.timeZoneIdentifier == "Europe/London")
        #expect(user.heartbeatCount == 2)
    }

    @Test("recordHeartbeat rejects unauthenticated, mismatched, unknown and malformed callers")
    func heartbeatRejections() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        h.test.advance(minutes: 5)
        let ok = SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles")
        await #expect(throws: SafeNSoundError.unauthenticated) {
            try await h.app.recordHeartbeat(authenticatedUserId: nil, request: ok)
        }
        await #expect(throws: SafeNSoundError.userIdMismatch(authenticatedUserId: "u2", requestedUserId: "u1")) {
            try await h.app.recordHeartbeat(authenticatedUserId: "u2", request: SafeNSoundHeartbeatRequest(userId: "u1", timeZoneIdentifier: "UTC"))
        }
        await #expect(throws: SafeNSoundError.userNotFound(userId: "u9")) {
            try await h.app.recordHeartbeat(authenticatedUserId: "u9", request: ok)
        }
        await #expect(throws: SafeNSoundError.unknownTimeZone(identifier: "Mars/Olympus")) {
            try await h.app.recordHeartbeat(authenticatedUserId: "u1", request: SafeNSoundHeartbeatRequest(timeZoneIdentifier: "Mars/Olympus"))
        }
    }

    @Test("Registration rejects bad thresholds, duplicate users and users without contacts")
    func registrationRejections() async throws {
        let h = SafeNSoundHarness()
        await #expect(throws: SafeNSoundError.invalidThreshold(hours: 168, allowedHours: [24, 48, 72])) {
            try await h.app.registerUser(SafeNSoundHarness.user("u1", thresholdHours: 168, at: h.test.now))
        }
        try await h.app.registerUser(SafeNSoundHarness.user("u1", at: h.test.now))
        await #expect(throws: SafeNSoundError.userAlreadyRegistered(userId: "u1")) {
            try await h.app.registerUser(SafeNSoundHarness.user("u1", at: h.test.now))
        }
        var lonely = SafeNSoundHarness.user("u2", at: h.test.now)
        lonely.emergencyContactEmails = []
        await #expect(throws: SafeNSoundError.noEmergencyContacts(userId: "u2")) {
            try await h.app.registerUser(lonely)
        }
        await #expect(throws: SafeNSoundError.invalidThreshold(hours: 5, allowedHours: [24, 48, 72])) {
            try await h.app.setCheckInThreshold(userId: "u1", hours: 5)
        }
    }

    @Test("Variant utc-email shows the last check-in in UTC")
    func utcEmailVariant() async throws {
        let h = SafeNSoundHarness(variant: .utcEmail)
        try await h.onboard("u1")
        await h.run(throughHours: 72)
        let email = try #require(await h.outbox.messages().first { $0.channel == .email })
        #expect(email.body.contains("Last check-in: Jan 13, 2026 at 6:00 AM UTC"))
    }

    @Test("The 30-minute check visits only users whose deadline is near")
    func checkVisitsOnlyDueUsers() async throws {
        let h = SafeNSoundHarness()
        for index in 0..<200 {
            try await h.app.registerUser(SafeNSoundHarness.user("u\(index)", thresholdHours: index < 10 ? 24 : 72, at: h.test.now))
        }
        h.test.set(hours: 20.5)
        let report = await h.app.checkMissedHeartbeats()
        #expect(report.visitedUserCount == 10)
        #expect(report.createdAlertIds.count == 10)
        let again = await h.app.checkMissedHeartbeats()
        #expect(again.visitedUserCount == 0)
    }

    @Test("Inactive users get no alerts")
    func inactiveUsersAreSkipped() async throws {
        let h = SafeNSoundHarness()
        try await h.onboard("u1")
        try await h.app.setActive(userId: "u1", false)
        await h.run(throughHours: 80)
        #expect(await h.outbox.messages().isEmpty)
    }

    @Test("Same inputs and seed give the same outbox, for every variant")
    func determinism() async throws {
        for variant in SafeNSoundVariant.allCases {
            var outboxes: [[String]] = []
            for _ in 0..<2 {
                let h = SafeNSoundHarness(variant: variant, seed: 7)
                try await h.onboard("a")
                h.test.advance(minutes: 7)
                try await h.onboard("b", thresholdHours: 24)
                await h.run(throughHours: 74)
                outboxes.append(await h.outbox.messages().map(\.description))
            }
            #expect(outboxes[0] == outboxes[1], "variant \(variant.rawValue)")
            #expect(!outboxes[0].isEmpty)
        }
    }

    @Test("Every variant has a kebab-case name and a description")
    func variantNames() {
        for variant in SafeNSoundVariant.allCases {
            #expect(SafeNSoundVariant(rawValue: variant.rawValue) == variant)
            #expect(variant.rawValue == variant.rawValue.lowercased())
            #expect(!variant.summary.isEmpty)
        }
    }
}

@Suite("App variant catalog")
struct AppVariantCatalogTests {
    @Test("Lists every app's variants once, with kebab-case names and summaries")
    func catalog() {
        let entries = AppVariantCatalog.entries
        #expect(Set(entries.map(\.app)) == ["knb", "ufree", "stampbook", "inspired", "safensound"])
        #expect(AppVariantCatalog.entries(for: "safensound").count == SafeNSoundVariant.allCases.count)
        for app in Set(entries.map(\.app)) {
            let names = AppVariantCatalog.entries(for: app).map(\.name)
            #expect(Set(names).count == names.count, "duplicate variant name in \(app)")
        }
        for entry in entries {
            #expect(entry.name == entry.name.lowercased() && !entry.name.contains(" "))
            #expect(!entry.summary.isEmpty)
        }
    }
}
