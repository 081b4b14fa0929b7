import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

// The load profiles of the scenarios whose load is not only arrivals: offline devices, the
// website sync schedule, contact discovery, Cloud Storage uploads, the daily reminder and the
// who's-free badge. As in LoadProfile+Apps.swift, set-up (sign-ups, seeded data, friendships) is
// not timed, each iteration is one user action of the scenario through its own client calls, with
// the scenarios' retry policy on the run's clock, and a business refusal is not a failure. Where
// the scenario drives scheduled backend work (the 30-minute website syncs, the daily reminders),
// set-up starts the backend's scheduler, which ticks on the backend's own clock while the load runs.
extension LoadProfile {
    /// UFree offline-first devices: each of 20 users has a phone and a tablet editing the same three
    /// days; before an edit a device may go offline or come back (refresh, then sync its queue).
    static let offlineSync = LoadProfile(
        scenario: "offline-sync", summary: "edit a day on one of 40 devices (20 users × phone, tablet), after going offline or back online (30 %: reconnect = refresh + sync)",
        operations: ["edit", "reconnect"], users: 40, faults: .default, runsOnRealServer: true
    ) { setup in
        let p = LoadProfile.defaults(of: OfflineSyncScenario())
        let app = UFreeApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, UFreeVariant.self))
        let retry = ClientRetry.on(setup.env.clock)
        let days = (0..<p[OfflineSyncScenario.Parameter.days]).map { OfflineSyncScenario.firstDay.adding(days: $0) }
        let offlinePercent = p[OfflineSyncScenario.Parameter.offlinePercent]
        let devices = (0..<20).flatMap { index in OfflineSyncScenario.deviceNames.map { app.device(uid: "u\(index)", named: $0) } }
        let checks = LoadCheckLog(offlineSyncChecks), log = OfflineSyncScenario.Log(), clock = setup.env.clock
        return Workload(checks: checks, settle: { await settleDevices(app, devices: devices, days: days, log: log, checks) }) { index, user, recorder in
            let device = devices[user % devices.count]
            let draw = LoadDraw(index)
            if draw.below(100, salt: 1) < offlinePercent {
                let online = !device.firestore.network.isOnline
                await device.setOnline(online)
                if online {
                    // Back online: take the server's days (retried while some stay unread), then sync the queue.
                    let start = recorder.now()
                    let failed = await LoadProfile.failed(retry) { () async throws -> Void in
                        guard device.firestore.network.isOnline else { return }  // offline again meanwhile: nothing to read
                        if await device.refresh(days) > 0 { throw BackendError.unavailable("\(device.label): days unread after reconnecting") }
                    }
                    await device.flush()
                    recorder.record("reconnect", start: start, failed: failed)
                }
            }
            // The edit applies to the device's cache at once and syncs now or on reconnect; a
            // rejected (older) write rolls back: the design's answer, so an edit never fails.
            let day = days[draw.below(days.count, salt: 2)]
            let status = UFreeAvailabilityStatus.allCases[draw.below(UFreeAvailabilityStatus.allCases.count, salt: 3)]
            let stamp = await device.set(day, status)
            log.edit("\(device.uid)/\(day.key)", stamp, real: clock.elapsedNanoseconds)
            await device.flush()
            recorder.record("edit")
        }
    }

    /// KNB kiddush bookings racing the 30-minute website syncs: the homepage (8 Shabbat dates, 6
    /// occasion places) is edited every ten minutes, the scheduler ticks from the run's start,
    /// and members book a date (a taken one is not a failure) and cancel half their bookings.
    static let calendarSync = LoadProfile(
        scenario: "calendar-sync", summary: "bookKiddush on one of 8 dates by a pool of 40 users, cancelKiddush of half the bookings, while the website syncs tick every 30 min",
        operations: ["bookKiddush", "cancelKiddush"], users: 40,
        faults: KNBScenarioSupport.faults(duplicatePercent: CalendarSyncScenario.Parameter.duplicatePercent.defaultValue), runsOnRealServer: true
    ) { setup in
        let p = LoadProfile.defaults(of: CalendarSyncScenario())
        let retry = ClientRetry.on(setup.env.clock)
        let start = setup.env.clock.now
        // An office edit in each ten minutes of the schedule's span, at a drawn second of it (ascending).
        let editTimes = (0..<Int(LoadProfile.scheduleSpan.nanoseconds / 600_000_000_000)).map { slot -> Timestamp in
            let second = 600 * slot + 1 + LoadDraw(slot).below(599, salt: 1)
            return start + .seconds(Int64(second))
        }
        var website = KNBWebsite(
            dates: (0..<p[CalendarSyncScenario.Parameter.dates]).map(CalendarSyncScenario.date),
            occasionSlots: p[CalendarSyncScenario.Parameter.occasionSlots], editTimes: editTimes, seed: 1)
        website.slowFetchProbability = Double(p[CalendarSyncScenario.Parameter.slowFetchPercent]) / 100
        website.fetchFailureProbability = Double(p[CalendarSyncScenario.Parameter.fetchFailPercent]) / 100
        let site = website
        let app = KNBApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, KNBVariant.self), website: site)
        let members = await signUpPool(app, count: 40, retry: retry)
        await setup.backend.scheduler.start(firstTick: setup.env.clock.now, until: start + LoadProfile.scheduleSpan)
        let cancelPercent = p[CalendarSyncScenario.Parameter.cancelPercent]
        let checks = LoadCheckLog([CalendarSyncScenario.Check.calendarKeepsAppBookings])
        return Workload(checks: checks, settle: { await settleCalendar(app, checks) }) { index, user, recorder in
            let member = members[user % members.count]
            let draw = LoadDraw(index)
            let date = site.dates[draw.below(site.dates.count, salt: 1)]
            var booked: DocumentPath?
            var failed = false
            do {
                let path = try await retry { try await member.bookKiddush(date: date, occasion: "Simcha", tierName: "Gold", tierAmount: 500) }
                booked = path
            } catch KNBError.dateAlreadyBooked {
                failed = false  // a taken date: the design's answer
            } catch {
                failed = true
            }
            recorder.record("bookKiddush", failed: failed)
            guard let path = booked, draw.below(100, salt: 2) < cancelPercent else { return }
            let cancelStart = recorder.now()
            let cancelFailed = await LoadProfile.failed(retry) { try await member.cancelKiddush(path) }
            recorder.record("cancelKiddush", start: cancelStart, failed: cancelFailed)
        }
    }

    /// UFree contact discovery by 200 users (30 % in the UK) with 12-entry address books in every
    /// format (seven in ten other users, the rest strangers or not numbers): each iteration registers
    /// the user's number (25 %; once registered, a repeat is a no-op) or discovers the whole book
    /// (75 %; the daily lookup quota's refusal is not a failure).
    static let contactDiscovery = LoadProfile(
        scenario: "contact-discovery", summary: "registerPhoneNumber (25 %) or discoverContacts of a 12-entry address book (75 %) by a pool of 200 users (quota refusals are not failures)",
        operations: ["registerPhoneNumber", "discoverContacts"], users: 200, faults: .default, runsOnRealServer: true
    ) { setup in
        let p = LoadProfile.defaults(of: ContactDiscoveryScenario())
        let app = UFreeApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, UFreeVariant.self))
        app.deployContactDiscovery(lookupsPerDay: p[ContactDiscoveryScenario.Parameter.lookupsPerDay])
        let retry = ClientRetry.on(setup.env.clock)
        let people = LoadProfile.contactPeople(count: 200, gbPercent: p[ContactDiscoveryScenario.Parameter.gbPercent], contacts: p[ContactDiscoveryScenario.Parameter.contactsPerUser])
        let clients = people.map { app.client(uid: $0.uid) }
        await withTaskGroup(of: Void.self) { group in  // concurrently: set-up is not timed, but should not take long
            for (person, client) in zip(people, clients) {
                group.addTask {
                    let zone = person.region == "GB" ? "Europe/London" : "America/Los_Angeles"
                    _ = try? await retry { try await client.registerUser(displayName: person.uid, timeZoneIdentifier: zone) }
                }
            }
        }
        let quota = p[ContactDiscoveryScenario.Parameter.lookupsPerDay]
        let checks = LoadCheckLog([ContactDiscoveryScenario.Check.contactsFound]), registry = ContactDiscoveryScenario.Registry()
        return Workload(checks: checks) { index, user, recorder in
            let person = people[user % people.count], client = clients[user % clients.count]
            if LoadDraw(index).below(4, salt: 1) == 0 {
                let written = ContactDiscoveryScenario.written(person.number, from: person.region, style: index)
                registry.attempted(person.uid)
                let failed = await LoadProfile.failed(retry) {
                    try await client.registerPhoneNumber(written, region: person.region)
                    registry.registered(person.uid)
                }
                recorder.record("registerPhoneNumber", failed: failed)
            } else {
                let entries = person.book.map(\.entry), before = registry.all
                var failed = false
                do {
                    let result = try await retry {
                        registry.lookedUp(person.uid, numbers: person.numbers)
                        return try await client.discoverContacts(entries, region: person.region)
                    }
                    judgeDiscovery(person, result, before: before, registry: registry, quota: quota, checks)
                } catch {
                    failed = BackendError.inside(error) != nil  // the quota's refusal is the design
                }
                recorder.record("discoverContacts", failed: failed)
            }
        }
    }

    /// Cloud Storage in three apps, each on its own project as in the scenario (the runner's backend
    /// holds KNB, whose faults and coverage the report shows; Inspired and Stampbook run on two more
    /// on the same environment and faults): KNB posts with 1–4 images, Inspired avatar updates from
    /// an owner's phone or tablet and avatar views by readers (a broken image is a failure), and
    /// Stampbook collects with four photos uploaded in parallel (20 % double taps). Uploads fail
    /// mid-transfer at the scenario's default rate (10 %).
    static let mediaUploads = LoadProfile(
        scenario: "media-uploads",
        summary: "post-with-images (20 %), avatar-update (20 %), avatar-read (40 %, a broken image fails), collect-with-photos (20 %) on KNB, Inspired, Stampbook; 40 users",
        operations: ["post-with-images", "avatar-update", "avatar-read", "collect-with-photos"], users: 40,
        faults: MediaUploadsScenario.faults(LoadProfile.defaults(of: MediaUploadsScenario()))
    ) { setup in
        let p = LoadProfile.defaults(of: MediaUploadsScenario())
        let variant = setup.variant ?? ""  // one variant name for three apps: each app takes its own
        let retry = ClientRetry.on(setup.env.clock)
        let knb = KNBApp(backend: setup.backend, variant: KNBVariant(rawValue: variant) ?? .careful)
        let inspired = InspiredApp(backend: setup.companionBackend(), variant: InspiredVariant(rawValue: variant) ?? .careful)
        let stampbook = StampbookApp(backend: setup.companionBackend(), variant: StampbookVariant(rawValue: variant) ?? .careful)
        let posters = await signUpPool(knb, count: 10, retry: retry)
        let everyone = InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public)
        var owners: [(uid: String, devices: [InspiredClient])] = []
        for index in 0..<5 {
            let uid = "owner\(index)"
            let phone = inspired.client(uid: uid, device: "phone"), tablet = inspired.client(uid: uid, device: "tablet")
            _ = try? await retry(attempts: 8) { try await phone.createProfile(displayName: "Owner \(index)", joinedCommunities: ["area\(index % 2)"]) }
            _ = try? await retry(attempts: 8) { try await phone.updatePrivacy(everyone) }
            try? await inspired.seedAvatar(userId: uid, thumbBytes: 20_000, standardBytes: 300_000)
            owners.append((uid, [phone, tablet]))
        }
        let avatarOwners = owners
        let readers = (0..<10).map { inspired.client(uid: "reader\($0)") }
        let stampIds = (0..<50).map { "stamp\($0)" }
        for (index, stampId) in stampIds.enumerated() { _ = try? await retry { try await stampbook.addStamp(stampId: stampId, name: "Stamp \(index)") } }
        let collectors = (0..<10).map { stampbook.client(uid: "collector\($0)") }
        let photosPerCollect = p[MediaUploadsScenario.Parameter.photosPerCollect]
        let doubleTapPercent = p[MediaUploadsScenario.Parameter.doubleTapPercent]
        return Workload { index, user, recorder in
            let draw = LoadDraw(index)
            switch draw.below(5, salt: 1) {
            case 0:
                // After the app's JPEG compression: 100 KB to just under 3 MiB.
                let images = (0..<(1 + draw.below(4, salt: 2))).map { KNBPostImage(sizeBytes: 100_000 + draw.below(3 * 1_048_576 - 100_000, salt: UInt64(10 + $0))) }
                let poster = posters[user % posters.count]
                var failed = false
                do { try await poster.createPost("Photos \(index)", images: images) } catch { failed = BackendError.inside(error) != nil }
                recorder.record("post-with-images", failed: failed)
            case 1:
                let owner = avatarOwners[user % avatarOwners.count]
                let device = owner.devices[draw.below(owner.devices.count, salt: 3)]
                var failed = false
                do {
                    try await device.updateAvatar(thumbBytes: 15_000 + draw.below(30_000, salt: 4), standardBytes: 150_000 + draw.below(600_000, salt: 5))
                } catch {
                    failed = BackendError.inside(error) != nil  // changed on the owner's other device meanwhile: the design's answer
                }
                recorder.record("avatar-update", failed: failed)
            case 2, 3:
                let reader = readers[user % readers.count]
                let owner = avatarOwners[draw.below(avatarOwners.count, salt: 6)].uid
                var failed = false
                do {
                    let shown = try await retry { try await reader.avatar(of: owner) }
                    if case .broken = shown { failed = true }  // the profile names an image that is not there
                } catch {
                    failed = BackendError.inside(error) != nil  // a profile that is not visible: the design's answer
                }
                recorder.record("avatar-read", failed: failed)
            default:
                let collector = collectors[user % collectors.count]
                let stampId = stampIds[draw.below(stampIds.count, salt: 7)]
                let photos = (0..<photosPerCollect).map { StorageUpload(sizeBytes: 200_000 + draw.below(2_000_000, salt: UInt64(20 + $0)), contentType: "image/jpeg") }
                // Already collected (a repeat, or the other tap of a double tap) is the design's answer.
                let collect: @Sendable () async -> Bool = { await LoadProfile.failed(retry) { try await collector.collectStamp(stampId, photos: photos) } }
                let failed: Bool
                if draw.below(100, salt: 8) < doubleTapPercent {
                    async let first = collect()
                    async let second = collect()
                    let (a, b) = await (first, second)
                    failed = a || b
                } else {
                    failed = await collect()
                }
                recorder.record("collect-with-photos", failed: failed)
            }
        }
    }

    /// SafeNSound's daily check-in reminder: 100 users in four zones (80 % with the reminder on, at
    /// a local time within the run's first hour), `sendDailyReminders` every 5 minutes (catch-up
    /// 15) on the backend's scheduler; each iteration a user checks in (50 %; too soon after the
    /// last one is not a failure) or changes the reminder's settings (50 %: off, or on at a new time).
    static let dailyReminder = LoadProfile(
        scenario: "daily-reminder", summary: "checkIn (50 %) or settings (50 %: reminder off, or on at a new time) by a pool of 100 users while sendDailyReminders ticks every 5 min",
        operations: ["checkIn", "settings"], users: 100, faults: .default, runsOnRealServer: true
    ) { setup in
        let p = LoadProfile.defaults(of: DailyReminderScenario())
        var configuration = SafeNSoundConfiguration(variant: ScenarioSupport.variant(named: setup.variant, SafeNSoundVariant.self))
        let interval = Duration.seconds(Int64(p[DailyReminderScenario.Parameter.intervalMinutes]) * 60)
        configuration.dailyReminderInterval = interval
        configuration.dailyReminderCatchUp = .seconds(Int64(p[DailyReminderScenario.Parameter.catchUpMinutes]) * 60)
        configuration.dailyReminderSkipsAfterCheckIn = p[DailyReminderScenario.Parameter.skipIfCheckedIn] == 1
        let app = SafeNSoundApp.deployed(on: setup.backend, configuration: configuration)
        let retry = ClientRetry.on(setup.env.clock)
        let clock = setup.env.clock
        let start = clock.now
        let zones = (0..<100).map { DailyReminderScenario.zones[$0 % DailyReminderScenario.zones.count] }
        for (index, zone) in zones.enumerated() {
            var user = SafeNSoundUser(
                userId: "u\(index)", name: "User \(index)", fcmToken: "tok-u\(index)", emergencyContactEmails: ["contact-u\(index)@example.com"],
                checkInThresholdHours: 72, lastHeartbeat: start - .seconds(Int64(LoadDraw(index).below(12 * 3600, salt: 1))), timeZoneIdentifier: zone)
            user.dailyReminderEnabled = LoadDraw(index).below(100, salt: 2) < p[DailyReminderScenario.Parameter.enabledPercent]
            user.dailyReminderTime = LoadProfile.reminderTime(at: start, in: zone, minutesAhead: 1 + LoadDraw(index).below(60, salt: 3))
            _ = try? await app.registerUser(user)
        }
        let devices = (0..<100).map { app.client(uid: "u\($0)") }
        await setup.backend.scheduler.start(firstTick: start + interval, until: start + LoadProfile.scheduleSpan)
        return Workload { index, user, recorder in
            let device = devices[user % devices.count], zone = zones[user % zones.count]
            let draw = LoadDraw(index)
            if draw.below(2, salt: 1) == 0 {
                recorder.record("checkIn", failed: await LoadProfile.failed(retry) { try await device.checkIn(timeZone: zone) })
            } else {
                let enabled = draw.below(100, salt: 2) >= 30
                let time = LoadProfile.reminderTime(at: clock.now, in: zone, minutesAhead: 1 + draw.below(60, salt: 3))
                recorder.record("settings", failed: await LoadProfile.failed(retry) { try await device.setDailyReminder(enabled: enabled, time: time) })
            }
        }
    }

    /// UFree's who's-free badge: 10 viewers (one phone each) are friends with 10 friends; each
    /// iteration a friend sets a day's status (50 %) or a viewer pulls to refresh the badge and its
    /// background upsert settles (50 %).
    static let whosFree = LoadProfile(
        scenario: "whos-free", summary: "setAvailability by one of 10 friends (50 %), refresh of a viewer's badge with its background upsert (50 %); 20 users, 14 days",
        operations: ["setAvailability", "refresh"], users: 20, faults: .default, runsOnRealServer: true
    ) { setup in
        let (app, users, retry) = await ufreePool(setup, count: 20)
        let friends = Array(users.prefix(10)), viewers = Array(users.suffix(10))
        await withTaskGroup(of: Void.self) { group in  // each viewer befriends every friend, viewers concurrently
            for viewer in viewers {
                group.addTask {
                    for friend in friends {
                        _ = try? await retry { try await viewer.client.sendFriendRequest(to: friend.uid) }
                        _ = try? await retry { try await friend.client.respondToFriendRequest(from: viewer.uid, accept: true) }
                    }
                }
            }
        }
        // Days from the day after tomorrow (UTC), so no user's local today is past them on either clock.
        let first = UFreeDay.containing(setup.env.clock.now, timeZoneIdentifier: "UTC").adding(days: 2)
        let days = (0..<WhosFreeScenario.Parameter.days.range.upperBound).map { first.adding(days: $0) }  // two weeks: the badge's widest
        let screens = viewers.map { app.friendsSchedule(userId: $0.uid, device: "\($0.uid)/phone") }
        let checks = LoadCheckLog(whosFreeChecks), friendIds = friends.map(\.uid)
        return Workload(checks: checks, settle: { await settleBadges(app, screens: screens, friends: friendIds, days: days, checks) }) { index, user, recorder in
            let draw = LoadDraw(index)
            if draw.below(2, salt: 1) == 0 {
                let friend = friends[user % friends.count]
                let day = days[draw.below(days.count, salt: 2)]
                let status = UFreeAvailabilityStatus.allCases[draw.below(UFreeAvailabilityStatus.allCases.count, salt: 3)]
                recorder.record("setAvailability", failed: await LoadProfile.failed(retry) { try await friend.client.setAvailability(day: day, status: status) })
            } else {
                let screen = screens[user % screens.count]
                var failed = false
                do {
                    try await screen.refresh(days: days)  // the screen's own read retries, as the scenario's refresh
                    await screen.settle()
                } catch {
                    failed = BackendError.inside(error) != nil
                }
                recorder.record("refresh", failed: failed)
            }
        }
    }

    // MARK: - Support

    /// How long the backend's scheduler keeps ticking in a load run (longer than any run: it stops
    /// with the process on the wall clock, and with the simulation in virtual time).
    static let scheduleSpan = Duration.seconds(30 * 86_400)

    /// `scenario`'s parameters at their documented defaults (the numbers its profile takes).
    static func defaults(of scenario: some Scenario) -> ScenarioParameters {
        ScenarioParameters(values: Dictionary(uniqueKeysWithValues: scenario.parameters.map { ($0.name, $0.defaultValue) }))
    }

    /// The reminder time `minutesAhead` minutes after `instant`'s local time in `zone`.
    static func reminderTime(at instant: Timestamp, in zone: String, minutesAhead: Int) -> SafeNSoundReminderTime {
        let minute = (SafeNSoundLocalCalendar.minuteOfDay(at: instant, in: zone) + minutesAhead) % 1_440
        return SafeNSoundReminderTime(hour: minute / 60, minute: minute % 60)!
    }

    /// `count` contact-discovery users u0…: `gbPercent` % with a GB number, the others a US one
    /// (user i holds slot i of their block), each with `contacts` address-book entries written as
    /// a phone in their region would hold them: seven in ten another user, two a stranger (a slot
    /// no user holds), one not a number. Drawn from the user's and entry's index (`LoadDraw`).
    static func contactPeople(count: Int, gbPercent: Int, contacts: Int) -> [ContactDiscoveryScenario.Person] {
        precondition(count >= 2 && count <= 5_000, "users hold the first slots of a 10,000-number block, strangers the upper half")
        let numbers = (0..<count).map { index -> (region: String, number: String) in
            let gb = LoadDraw(index).below(100, salt: 1) < gbPercent
            return (gb ? "GB" : "US", ContactDiscoveryScenario.planNumber((gb ? 10_000 : 0) + index))
        }
        return (0..<count).map { index -> ContactDiscoveryScenario.Person in
            let region = numbers[index].region
            let book = (0..<contacts).map { slot -> (entry: String, owner: String?, isNumber: Bool) in
                let draw = LoadDraw(index * 1_000 + slot)
                let style = draw.below(5, salt: 3)
                switch draw.below(10, salt: 2) {
                case 0..<7:
                    var other = draw.below(count - 1, salt: 4)
                    if other >= index { other += 1 }
                    return (ContactDiscoveryScenario.written(numbers[other].number, from: region, style: style), "u\(other)", true)
                case 7..<9:
                    let stranger = (draw.below(2, salt: 5) == 0 ? 0 : 10_000) + 5_000 + draw.below(5_000, salt: 6)
                    return (ContactDiscoveryScenario.written(ContactDiscoveryScenario.planNumber(stranger), from: region, style: style), nil, true)
                default:
                    return (["555-0199", "ask Sam", "+33 1 23 45 67 89", "07700 9001"][draw.below(4, salt: 7)], nil, false)
                }
            }
            return ContactDiscoveryScenario.Person(uid: "u\(index)", region: region, number: numbers[index].number, book: book)
        }
    }
}
