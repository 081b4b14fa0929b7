import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// KNB kiddush sponsorship: users (some admins) race to book a few Shabbat dates.
public struct KiddushBookingScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .kiddushBooking }
    /// The name `rehearse` takes.
    public let name = "kiddush-booking"
    /// One line for `rehearse list`.
    public let summary = "users and admins race to sponsor a few kiddush dates; one booking and one email per date"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.admins,
        Parameter.dates,
        Parameter.windowSeconds,
        Parameter.duplicatePercent,
        Parameter.cancelPercent,
        Parameter.rebookPercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["bookKiddush", "cancelKiddush"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([KNBVariant.kiddushRandomId, .kiddushSetDataOverwrite, .kiddushCheckSendSet, .kiddushDeleteClearsDate, .bookingClaimNeverExpires, .kiddushOneInstance])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.oneBookingPerDate,
        Check.rejectionSaysAlreadyBooked,
        Check.bookedUserIsSponsor,
        Check.oneEmailPerBooking,
        Check.calendarMatchesBookings,
        Check.dateRebooked,
        Check.dateAlreadyBooked,
    ]

    static func date(_ index: Int) -> String { "2026-02-\(String(format: "%02d", 7 + 7 * index % 21))" }

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = KNBScenarioSupport.makeApp(context, duplicatePercent: p[Parameter.duplicatePercent])
        var signedUp: [KNBClient] = []
        for index in 0..<p[Parameter.users] {
            signedUp.append(await KNBScenarioSupport.signUp(app, email: "u\(index)@knb.org", name: "User \(index)", admin: index < p[Parameter.admins]))
        }
        let users = signedUp
        let names = Dictionary(uniqueKeysWithValues: users.map { ($0.email, $0.name) })
        let origin = Simulation.nowNanoseconds
        let logs = Logs()
        try await context.monitored(every: .milliseconds(200), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (index, user) in users.enumerated() {
                    group.addTask {
                        await Self.bookingSession(user, index: index, origin: origin, logs: logs, context: context)
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        Self.checkSponsors(app, logs: logs, context)
        Self.checkBookingEmails(app, names: names, context)
        Self.checkCalendar(app, dates: p[Parameter.dates], names: names, context)
        try context.throwIfStopped()
    }

    /// What the users were told: bookings confirmed, cancels sent and cancels confirmed.
    private struct Logs: Sendable {
        let confirmed = ConfirmedLog(), cancelsSent = ConfirmedLog(), cancelsConfirmed = ConfirmedLog()
    }

    /// How one booking attempt ended.
    private enum BookingAttempt {
        case booked
        /// Refused because the date is taken: a rebooking user tries again.
        case alreadyBooked
        /// Refused otherwise, or failed: the user stops.
        case gaveUp
    }

    /// One user's session: at a drawn instant, books a drawn date (again after a pause if they
    /// rebook), and may cancel what they booked.
    private static func bookingSession(_ user: KNBClient, index: Int, origin: UInt64, logs: Logs, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("kiddush/user-\(index)")
        await KNBScenarioSupport.sleep(until: origin + UInt64(random.below(p[Parameter.windowSeconds] * 1_000)) * 1_000_000)
        let date = Self.date(random.below(p[Parameter.dates]))
        // Drawn up front so the booking's outcome does not shift the stream.
        let cancels = random.below(100) < p[Parameter.cancelPercent]
        let cancelDelay = UInt64(random.below(1_500)) * 1_000_000
        let rebooks = random.below(100) < p[Parameter.rebookPercent]
        let rebookDelay = UInt64(200 + random.below(1_800)) * 1_000_000
        var tries = rebooks ? 2 : 1
        while tries > 0 {
            tries -= 1
            let arrival = Simulation.nowNanoseconds
            switch await attemptBooking(user, date: date, arrival: arrival, cancelAfter: cancels ? cancelDelay : nil, logs: logs, context: context) {
            case .booked: return
            case .alreadyBooked: break
            case .gaveUp: tries = 0
            }
            context.recordLatency("bookKiddush", user: user.email, intendedStartNanoseconds: arrival)
            if tries > 0 { await KNBScenarioSupport.sleep(until: Simulation.nowNanoseconds + rebookDelay) }
        }
    }

    /// Books `date`; once booked, cancels it `cancelAfter` later if given. A refusal must say the
    /// date is already booked.
    private static func attemptBooking(
        _ user: KNBClient, date: String, arrival: UInt64, cancelAfter cancelDelay: UInt64?, logs: Logs, context: ScenarioContext
    ) async -> BookingAttempt {
        context.note(user.email, "book \(date)")
        do {
            let path = try await ScenarioSupport.retrying {
                try await user.bookKiddush(date: date, occasion: "Simcha", tierName: "Gold", tierAmount: 500)
            }
            context.sometimes(Check.dateRebooked, logs.cancelsConfirmed.entries.contains { $0.path == path })
            logs.confirmed.append(user: user.email, path: path)
            context.note(user.email, "booked \(date)")
            context.recordLatency("bookKiddush", user: user.email, intendedStartNanoseconds: arrival)
            if let cancelDelay {
                await KNBScenarioSupport.sleep(until: Simulation.nowNanoseconds + cancelDelay)
                await Self.cancel(user, path, sent: logs.cancelsSent, confirmed: logs.cancelsConfirmed, context: context)
            }
            return .booked
        } catch KNBError.dateAlreadyBooked {
            context.sometimes(Check.dateAlreadyBooked, true)
            context.always(Check.rejectionSaysAlreadyBooked, true, "")
            context.note(user.email, "\(date) already booked")
            return .alreadyBooked
        } catch KNBError.backend(.permissionDenied(let operation, let path)) {
            context.always(Check.rejectionSaysAlreadyBooked, false, "\(user.email) booking \(date) got PERMISSION_DENIED (\(operation) \(path))")
            return .gaveUp
        } catch {
            context.note(user.email, "booking failed: \(error)")
            return .gaveUp
        }
    }

    /// booked-user-is-sponsor: every booking a user was told of, and did not cancel, names them.
    private static func checkSponsors(_ app: KNBApp, logs: Logs, _ context: ScenarioContext) {
        let firestore = app.backend.firestore
        let cancelled = Set(logs.cancelsSent.entries.map { "\($0.user)|\($0.path)" })
        for (user, path) in logs.confirmed.entries where !cancelled.contains("\(user)|\(path)") {
            let sponsor = firestore.liveFields(path)?["sponsorEmail"]?.stringValue
            context.eventually(Check.bookedUserIsSponsor, sponsor == user, "\(user) was told \(path) is booked, but the sponsor is \(sponsor ?? "nobody")")
        }
    }

    /// one-email-per-booking: each booking emails each recipient once, once more per terminated
    /// invocation.
    private static func checkBookingEmails(_ app: KNBApp, names: [String: String], _ context: ScenarioContext) {
        let firestore = app.backend.firestore
        let emails = app.backend.outbox.records.filter { $0.channel == .email && $0.type == "KIDDUSH_BOOKING" }
        // SendGrid has no idempotency key: an invocation that died after sending and before
        // recording it is redelivered and sends again, so each termination may add one email.
        let terminated = ScenarioSupport.terminatedInvocations(app.backend, function: "onKiddushSponsorshipCreate")
        for booking in firestore.query("kiddush_sponsorships") {
            let allowed = 1 + (terminated["\(booking.path)"] ?? 0)
            let sponsor = names[booking["sponsorEmail"]?.stringValue ?? ""] ?? "?"
            for recipient in KNBApp.bookingRecipients {
                let count = emails.filter {
                    let body = $0.payload["body"] ?? ""
                    return $0.recipient == recipient && body.hasPrefix("\(sponsor) sponsors ") && body.hasSuffix("(\(booking.id))")
                }.count
                context.eventually(Check.oneEmailPerBooking, count >= 1 && count <= allowed,
                                   "booking \(booking.id) by \(sponsor) sent \(count) emails to \(recipient)\(allowed > 1 ? " (\(allowed - 1) terminated invocations allow \(allowed))" : "")")
            }
        }
    }

    /// Cancels `path` (retried like any client call), recording the attempt before it is sent.
    static func cancel(_ user: KNBClient, _ path: DocumentPath, sent: ConfirmedLog, confirmed: ConfirmedLog, context: ScenarioContext) async {
        let start = Simulation.nowNanoseconds
        context.note(user.email, "cancel \(path.id)")
        do {
            try await ScenarioSupport.retrying { () async throws -> Void in
                sent.append(user: user.email, path: path)
                try await user.cancelKiddush(path)
            }
            confirmed.append(user: user.email, path: path)
        } catch {
            context.note(user.email, "cancel failed: \(error)")
        }
        context.recordLatency("cancelKiddush", user: user.email, intendedStartNanoseconds: start)
    }

    /// The public calendar against the bookings that stand: each date with a booking shows its
    /// sponsor by the name the scenario gave that user (not the booking's copy of it), and a date
    /// without one shows nothing.
    static func checkCalendar(_ app: KNBApp, dates: Int, names: [String: String], _ context: ScenarioContext) {
        let firestore = app.backend.firestore
        for date in Set((0..<dates).map(Self.date)).sorted() {
            let booking = firestore.liveFields(DocumentPath("kiddush_sponsorships", date))
            let entry = firestore.liveFields(DocumentPath("kiddushCalendar", date))
            guard let booking else {
                context.eventually(Check.calendarMatchesBookings, entry == nil,
                                   "\(date) has no booking, but the calendar shows it sponsored by \(entry?["sponsor"]?.stringValue ?? "?")")
                continue
            }
            let expected = names[booking["sponsorEmail"]?.stringValue ?? ""] ?? "?"
            let shown = entry?["sponsor"]?.stringValue
            let ok = shown == expected && entry?["status"] == "sponsored" && entry?["source"] == "app"
            context.eventually(Check.calendarMatchesBookings, ok,
                               "\(date) is booked by \(expected), but the calendar shows \(entry == nil ? "no entry" : "\(shown ?? "?") (\(entry?["status"]?.stringValue ?? "?"), source \(entry?["source"]?.stringValue ?? "?"))")")
        }
    }

    static func checkState(_ app: KNBApp, _ context: ScenarioContext) {
        var byDate: [String: Int] = [:]
        for booking in app.backend.firestore.query("kiddush_sponsorships") { byDate[booking["date"]?.stringValue ?? "?", default: 0] += 1 }
        for date in byDate.keys.sorted() {
            context.always(Check.oneBookingPerDate, byDate[date]! <= 1, "\(byDate[date]!) sponsorships of \(date)")
        }
    }
}
