import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// KNB's 30-minute website syncs (`syncKiddushCalendar`, `syncCommunityOccasions`) against a
/// congregation homepage the office edits over virtual time, while members book and cancel
/// kiddush sponsorships in the app just after sync ticks, so `onKiddushSponsorshipCreate`/`Delete`
/// race the syncs on `kiddushCalendar` documents; slow fetches make runs overlap.
public struct CalendarSyncScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .calendarSync }
    /// The name `rehearse` takes.
    public let name = "calendar-sync"
    /// One line for `rehearse list`.
    public let summary = "KNB website syncs every 30 min (hash skip, app entries kept, occasions replaced) racing kiddush bookings and cancellations"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users, Parameter.dates, Parameter.hours, Parameter.websiteEdits, Parameter.occasionSlots,
        Parameter.cancelPercent, Parameter.burstSeconds, Parameter.slowFetchPercent, Parameter.fetchFailPercent,
        Parameter.duplicatePercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["bookKiddush", "cancelKiddush"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([KNBVariant.syncReadsAppEntriesFirst, .syncHashSkipStale, .occasionsUpsertOnly, .occasionsClearedBeforeFetch])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.calendarKeepsAppBookings, Check.calendarMatchesWebsite, Check.occasionsMatchWebsite, Check.occasionsStayShown,
        Check.cancelledDateRestored, Check.unchangedPageSkipped,
    ]

    /// The ISO date of the `index`-th Shabbat from 2026-02-07, weekly.
    static func date(_ index: Int) -> String {
        let monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var year = 2026, month = 2, day = 7 + 7 * index
        while day > monthDays[month - 1] {
            day -= monthDays[month - 1]
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// Runs one seed: the site and the syncs on the scheduler, the members, then the end checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let backend = context.backend(KNBScenarioSupport.faults(duplicatePercent: p[Parameter.duplicatePercent]))
        var random = Simulation.random("calendar-sync/site")
        let start = backend.env.clock.now
        let period = KNBApp.websiteSyncPeriod
        // Edits, bookings and cancellations happen before the last two hours, so at least four
        // ticks (each a run of three fetch attempts) follow the last change.
        let busy = Duration.seconds(3_600 * Int64(p[Parameter.hours] - 2))
        let ticks = Int(busy.nanoseconds / period.nanoseconds)
        let editTimes = (0..<p[Parameter.websiteEdits]).map { _ in start + .nanoseconds(random.int64(in: 0...(busy.nanoseconds - 1))) }.sorted()
        var website = KNBWebsite(dates: (0..<p[Parameter.dates]).map(Self.date), occasionSlots: p[Parameter.occasionSlots], editTimes: editTimes, seed: random.next())
        website.slowFetchProbability = Double(p[Parameter.slowFetchPercent]) / 100
        website.fetchFailureProbability = Double(p[Parameter.fetchFailPercent]) / 100
        let site = website
        let app = KNBApp(backend: backend, variant: ScenarioSupport.variant(context, KNBVariant.self), website: site)
        var signedUp: [KNBClient] = []
        for index in 0..<p[Parameter.users] {
            signedUp.append(await KNBScenarioSupport.signUp(app, email: "m\(index)@knb.org", name: "Member \(index)"))
        }
        let members = signedUp
        let names = Dictionary(uniqueKeysWithValues: members.map { ($0.email, $0.name) })
        let end = backend.env.clock.now + .seconds(3_600 * Int64(p[Parameter.hours]))
        let origin = Simulation.nowNanoseconds
        let firstTick = backend.env.clock.now
        await backend.scheduler.start(firstTick: firstTick, until: end)
        let booked = ConfirmedLog()
        let screen = OccasionsScreen(site).watch(app, context)
        await withTaskGroup(of: Void.self) { group in
            for (index, member) in members.enumerated() {
                group.addTask {
                    await Simulation.named("member-\(index)") {
                        await Self.member(member, index: index, website: site, origin: origin, ticks: ticks, booked: booked, context: context)
                    }
                }
            }
        }
        await backend.waitUntilIdle()
        screen.remove()
        guard !context.isStopped else { try context.throwIfStopped(); return }
        var lastTick = firstTick
        while lastTick + period <= end { lastTick = lastTick + period }
        Self.checkEnd(app, website: site, names: names, booked: booked, lastTick: lastTick, judged: Self.shownRevisions(app, site, firstTick: firstTick, lastTick: lastTick), context: context)
        try context.throwIfStopped()
    }

    /// One member: books a random date a few seconds after a random sync tick and, sometimes,
    /// cancels it a few seconds after a later tick.
    static func member(
        _ member: KNBClient, index: Int, website: KNBWebsite, origin: UInt64, ticks: Int, booked: ConfirmedLog, context: ScenarioContext
    ) async {
        let p = context.parameters
        var random = Simulation.random("calendar-sync/member-\(index)")
        let period = UInt64(KNBApp.websiteSyncPeriod.nanoseconds)
        let burst = UInt64(p[Parameter.burstSeconds]) * 1_000_000_000
        let bookTick = random.below(max(ticks, 1))
        let date = website.dates[random.below(website.dates.count)]
        let cancels = random.below(100) < p[Parameter.cancelPercent] && bookTick + 1 < ticks
        let cancelTick = cancels ? bookTick + 1 + random.below(ticks - bookTick - 1) : 0
        let bookAt = origin + UInt64(bookTick) * period + random.next() % burst
        let cancelAt = origin + UInt64(cancelTick) * period + random.next() % burst
        await KNBScenarioSupport.sleep(until: bookAt)
        context.note(member.email, "book \(date)")
        let path: DocumentPath
        do {
            path = try await ScenarioSupport.retrying {
                try await member.bookKiddush(date: date, occasion: "Simcha", tierName: "Gold", tierAmount: 500)
            }
            booked.append(user: member.email, path: path)
            context.note(member.email, "booked \(date)")
        } catch {
            context.note(member.email, "booking \(date) refused: \(error)")
            context.recordLatency("bookKiddush", user: member.email, intendedStartNanoseconds: bookAt)
            return
        }
        context.recordLatency("bookKiddush", user: member.email, intendedStartNanoseconds: bookAt)
        guard cancels else { return }
        await KNBScenarioSupport.sleep(until: cancelAt)
        context.note(member.email, "cancel \(date)")
        do {
            try await ScenarioSupport.retrying { try await member.cancelKiddush(path) }
        } catch {
            context.note(member.email, "cancel failed: \(error)")
        }
        context.recordLatency("cancelKiddush", user: member.email, intendedStartNanoseconds: cancelAt)
    }

    /// The website revisions the calendar may show at the end: those of the ticks back to the
    /// fourth whose run met no website outage (a provider outage; any of their syncs may have been
    /// the last to succeed, and four runs of three attempts make a plain failure of all
    /// negligible), newest first; nil when outages left fewer than four such ticks in the run, so
    /// nothing can be owed. Read from the outage windows, not the app.
    static func shownRevisions(_ app: KNBApp, _ website: KNBWebsite, firstTick: Timestamp, lastTick: Timestamp) -> [Int]? {
        let clock = app.backend.env.clock
        let elapsed = clock.elapsedNanoseconds, now = clock.now
        let down = app.backend.outages.windows(of: .website, through: elapsed).map { window in
            (now - .nanoseconds(elapsed - window.start), now - .nanoseconds(elapsed - window.end))
        }
        var revisions: [Int] = []
        var upTicks = 0
        var tick = lastTick
        while upTicks < 4 {
            guard tick >= firstTick else { return nil }
            revisions.append(website.revision(at: tick))
            // A run fetches for up to three attempts of six minutes each (a slow page).
            let runEnd = tick + .seconds(1_200)
            if !down.contains(where: { $0.0 <= runEnd && $0.1 >= tick }) { upTicks += 1 }
            tick = tick - KNBApp.websiteSyncPeriod
        }
        return revisions
    }

    /// The end state against the website's page (its last tick's, or one a website outage left
    /// standing: `judged`, nil when outages leave nothing owed) and the bookings that stand, computed from the site's rows and the
    /// scenario's own tables (not the app's parser or sync).
    static func checkEnd(
        _ app: KNBApp, website: KNBWebsite, names: [String: String], booked: ConfirmedLog, lastTick: Timestamp, judged: [Int]?, context: ScenarioContext
    ) {
        let firestore = app.backend.firestore
        if judged == nil { context.note("website", "down at all but a few sync runs (outages): only app bookings are judged") }
        let candidates = judged ?? [website.revision(at: lastTick)]
        let final = candidates.first { matchesCalendar(firestore, website.calendar(revision: $0)) } ?? candidates[0]
        let bookedDates = Set(booked.entries.map(\.path.id))
        for row in website.calendar(revision: final) {
            let entry = firestore.liveFields(DocumentPath("kiddushCalendar", row.date))
            let shown = entry.map { "\($0["sponsor"]?.stringValue ?? "?") (\($0["status"]?.stringValue ?? "?"), source \($0["source"]?.stringValue ?? "?"))" } ?? "no entry"
            if let booking = firestore.liveFields(DocumentPath("kiddush_sponsorships", row.date)) {
                let sponsor = names[booking["sponsorEmail"]?.stringValue ?? ""] ?? "?"
                let ok = entry?["source"] == "app" && entry?["status"] == "sponsored" && entry?["sponsor"]?.stringValue == sponsor
                context.eventually(Check.calendarKeepsAppBookings, ok, "\(row.date) is booked in the app by \(sponsor), but the calendar shows \(shown)")
                continue
            }
            let ok = entry?["source"] == "website" && entry?["status"]?.stringValue == row.status && entry?["sponsor"]?.stringValue == row.sponsor
                && entry?["occasion"]?.stringValue == row.occasion && entry?["parsha"]?.stringValue == row.parsha
            guard judged != nil else { continue }
            context.eventually(Check.calendarMatchesWebsite, ok,
                               "\(row.date): the website says \(row.status == "sponsored" ? "sponsored by \(row.sponsor)" : "available") (\(row.parsha)), but the calendar shows \(shown)")
            if bookedDates.contains(row.date) { context.sometimes(Check.cancelledDateRestored, ok) }
        }
        // Occasions: the page's final list, grouped by this table (not the parser's).
        let groups = ["births": "celebration", "engagements": "celebration", "weddings": "celebration", "bar_bat_mitzvah": "celebration",
                      "yahrzeit": "time_sensitive", "condolences": "time_sensitive", "announcements": "notice"]
        func expectedOccasions(_ revision: Int) -> [String: Int] {
            var expected: [String: Int] = [:]
            for item in website.occasions(revision: revision) {
                expected["\(item.category)|\(item.effectiveDateIso)|\(item.rawText)|\(groups[item.category] ?? "?")", default: 0] += 1
            }
            return expected
        }
        var stored: [String: Int] = [:]
        for document in firestore.query("communityOccasions") {
            let key = ["category", "effectiveDateIso", "rawText", "group"].map { document[$0]?.stringValue ?? "?" }.joined(separator: "|")
            stored[key, default: 0] += 1
        }
        // The occasions sync fetches on its own, so an outage may have left it at another tick's page.
        let expected = candidates.lazy.map(expectedOccasions).first { $0 == stored } ?? expectedOccasions(candidates[0])
        for key in Set(expected.keys).union(stored.keys).sorted() where expected[key] != stored[key] && judged != nil {
            let (want, have) = (expected[key] ?? 0, stored[key] ?? 0)
            context.eventually(Check.occasionsMatchWebsite, false,
                               "occasion \(key.split(separator: "|").prefix(3).joined(separator: " / ")): the website lists it \(want)×, communityOccasions holds it \(have)×")
        }
        if expected == stored && judged != nil { context.eventually(Check.occasionsMatchWebsite, true, "") }
        let syncedAt = firestore.liveFields(DocumentPath("kiddushMeta", "lastSync"))?["fetchedAt"]?.timestampValue
        context.sometimes(Check.unchangedPageSkipped, syncedAt.map { $0 < lastTick } ?? false)
    }

    /// Whether every website-sourced row of `rows` is on the calendar as the row says (the rows of
    /// dates the app has bookings for are judged by the bookings instead).
    static func matchesCalendar(_ firestore: Firestore, _ rows: [KNBWebsite.CalendarRow]) -> Bool {
        rows.allSatisfy { row in
            if firestore.liveFields(DocumentPath("kiddush_sponsorships", row.date)) != nil { return true }
            let entry = firestore.liveFields(DocumentPath("kiddushCalendar", row.date))
            return entry?["source"] == "website" && entry?["status"]?.stringValue == row.status && entry?["sponsor"]?.stringValue == row.sponsor
                && entry?["occasion"]?.stringValue == row.occasion && entry?["parsha"]?.stringValue == row.parsha
        }
    }
}
