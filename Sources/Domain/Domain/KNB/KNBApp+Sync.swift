import SimulatedFirebase

/// The 30-minute website syncs (seed: "Scheduled Sync System"; docs/domain.md, "KNB website
/// syncs"): `syncKiddushCalendar` scrapes the homepage's kiddush calendar into
/// `kiddushCalendar/{isoDate}`, skipping an unchanged page by its content hash and never
/// overwriting an entry with `source == "app"`; `syncCommunityOccasions` replaces the
/// `communityOccasions` collection with the page's occasions.
extension KNBApp {
    /// `kiddushMeta/lastSync`: the calendar sync's content hash and the fetch it came from.
    static let kiddushMeta = DocumentPath("kiddushMeta", "lastSync")
    /// `communityMeta/lastSync`: the occasions sync's content hash, fetch time and the ids it wrote.
    static let communityMeta = DocumentPath("communityMeta", "lastSync")
    /// The syncs' schedule (seed: `*/30 * * * *`).
    public static let websiteSyncPeriod = Duration.seconds(1_800)
    /// Fetch attempts per run (a 5xx is retried after 5 s, then 10 s).
    static let websiteFetchAttempts = 3

    /// The syncs fetch a page that can take minutes, so they are deployed with the longest
    /// timeout (540 s; MODEL_RULES §20) instead of the default 60 s.
    func installWebsiteSync(_ website: KNBWebsite) {
        backend.functions.schedule("syncKiddushCalendar", every: Self.websiteSyncPeriod, timeout: Functions.maxTimeout) { [self] _ in
            try await syncKiddushCalendar(website)
        }
        backend.functions.schedule("syncCommunityOccasions", every: Self.websiteSyncPeriod, timeout: Functions.maxTimeout) { [self] _ in
            try await syncCommunityOccasions(website)
        }
    }

    /// One fetch of the homepage: the page as served when the response arrives, and when that was.
    func fetchHomepage(_ website: KNBWebsite) async throws -> (html: String, fetchedAt: Timestamp) {
        guard let random = websiteRandom else { throw BackendError.invalidArgument("no website deployed") }
        let ledger = backend.faultLedger
        var attempt = 1
        while true {
            ledger.opportunity(.websiteSlowFetch, probability: website.slowFetchProbability)
            var latency = random.sample(website.fetchLatency)
            if random.chance(website.slowFetchProbability) {
                ledger.observe(.websiteSlowFetch, subject: "homepage")
                latency = .seconds(180) + random.duration(upTo: .seconds(180))
            }
            try? await backend.env.clock.sleep(for: latency)
            let failure = backend.outages.probability(website.fetchFailureProbability, of: .website, atElapsed: backend.env.clock.elapsedNanoseconds)
            ledger.opportunity(.websiteFetchFailure, probability: failure)
            if !random.chance(failure) {
                let now = backend.env.clock.now
                return (website.html(at: now), now)
            }
            ledger.observe(.websiteFetchFailure, subject: "homepage attempt \(attempt)")
            guard attempt < Self.websiteFetchAttempts else { throw BackendError.unavailable("heritage website: HTTP 503") }
            try? await backend.env.clock.sleep(for: .seconds(Int64(5 * attempt)))
            attempt += 1
        }
    }

    // MARK: Kiddush calendar

    /// One run of `syncKiddushCalendar`. Careful: after the fetch, one server transaction reads
    /// the meta document and every listed date, skips the whole page if its hash is the one last
    /// written (or a run that fetched later has already written), writes each date whose entry is
    /// not an app booking, and records the hash. A cancellation forgets the hash
    /// (`onKiddushDelete`), so the skip cannot keep a cancelled date empty.
    func syncKiddushCalendar(_ website: KNBWebsite) async throws {
        if has(.syncReadsAppEntriesFirst) {
            try await syncKiddushCalendarReadingFirst(website)
            return
        }
        let page = try await fetchHomepage(website)
        let rows = KNBWebsiteParser.calendar(page.html)
        guard !rows.isEmpty else { return }  // no table on the page: nothing to trust, nothing written
        let hash = KNBWebsiteParser.contentHash(rows)
        try await firestore.runTransaction { tx in
            let meta = try await tx.get(Self.kiddushMeta)
            if meta["contentHash"]?.stringValue == hash { return }
            if let held = meta["fetchedAt"]?.timestampValue, held > page.fetchedAt { return }
            // Every read before the first write (Firestore transactions require it).
            var appDates: Set<String> = []
            for row in rows where try await tx.get(DocumentPath("kiddushCalendar", row.date))["source"]?.stringValue == "app" {
                appDates.insert(row.date)
            }
            for row in rows where !appDates.contains(row.date) {
                tx.set(DocumentPath("kiddushCalendar", row.date), calendarEntry(row, fetchedAt: page.fetchedAt))
            }
            tx.set(Self.kiddushMeta, ["contentHash": .string(hash), "fetchedAt": .timestamp(page.fetchedAt)])
        }
    }

    /// `sync-reads-app-entries-first`: which dates are app bookings is read before the fetch.
    private func syncKiddushCalendarReadingFirst(_ website: KNBWebsite) async throws {
        let appDates = Set(await firestore.fetch("kiddushCalendar", whereField: "source", isEqualTo: "app").map(\.id))
        let page = try await fetchHomepage(website)
        let rows = KNBWebsiteParser.calendar(page.html)
        guard !rows.isEmpty else { return }
        let hash = KNBWebsiteParser.contentHash(rows)
        if await firestore.get(Self.kiddushMeta)["contentHash"]?.stringValue == hash { return }
        // A batched write: atomic, no reads.
        try await firestore.runTransaction { tx in
            for row in rows where !appDates.contains(row.date) {
                tx.set(DocumentPath("kiddushCalendar", row.date), calendarEntry(row, fetchedAt: page.fetchedAt))
            }
            tx.set(Self.kiddushMeta, ["contentHash": .string(hash), "fetchedAt": .timestamp(page.fetchedAt)])
        }
    }

    private func calendarEntry(_ row: KNBWebsite.CalendarRow, fetchedAt: Timestamp) -> Fields {
        [
            "status": .string(row.status), "sponsor": .string(row.sponsor), "occasion": .string(row.occasion),
            "source": "website", "parsha": .string(row.parsha), "updatedAt": .timestamp(backend.env.clock.now),
            "fetchedAt": .timestamp(fetchedAt),
        ]
    }

    // MARK: Community occasions

    /// One run of `syncCommunityOccasions`: after the fetch, one server transaction (the seed's
    /// batch) reads the meta document, skips an unchanged page or one older than the last
    /// written, deletes the occasions the last run wrote that the page no longer lists, sets the
    /// listed ones by their deterministic ids and records the hash and the ids. The ids come from
    /// the meta document (read in the transaction), not a query, so two overlapping runs cannot
    /// each miss what the other wrote.
    func syncCommunityOccasions(_ website: KNBWebsite) async throws {
        if has(.occasionsClearedBeforeFetch) {
            // Clear, then fetch: the hash and the ids are forgotten so the page is written whole.
            for document in await firestore.fetch("communityOccasions") { try await firestore.delete(document.path) }
            try await firestore.delete(Self.communityMeta)
        }
        let page = try await fetchHomepage(website)
        let items = KNBWebsiteParser.occasions(page.html)
        let hash = KNBWebsiteParser.contentHash(items)
        let upsertOnly = has(.occasionsUpsertOnly)
        try await firestore.runTransaction { tx in
            let meta = try await tx.get(Self.communityMeta)
            if meta["contentHash"]?.stringValue == hash { return }
            if let held = meta["fetchedAt"]?.timestampValue, held > page.fetchedAt { return }
            let listed = Set(items.map(\.id))
            if !upsertOnly {
                for id in (meta["ids"]?.arrayValue ?? []).compactMap(\.stringValue).sorted() where !listed.contains(id) {
                    tx.delete(DocumentPath("communityOccasions", id))
                }
            }
            for item in items {
                tx.set(DocumentPath("communityOccasions", item.id), [
                    "category": .string(item.category), "categoryLabel": .string(item.categoryLabel),
                    "rawText": .string(item.rawText), "effectiveDateIso": .string(item.effectiveDateIso),
                    "sourceDateText": .string(item.effectiveDateIso), "group": .string(item.group),
                    // Decided: the seed does not define the window; notices that are time-sensitive are in it.
                    "isInPriorityWindow": .bool(item.group == "time_sensitive"), "sortRank": .int(Int64(item.sortRank)),
                    "source": "website", "updatedAt": .timestamp(backend.env.clock.now),
                ])
            }
            tx.set(Self.communityMeta, [
                "contentHash": .string(hash), "fetchedAt": .timestamp(page.fetchedAt),
                "ids": .array(items.map { .string($0.id) }),
            ])
        }
    }
}
