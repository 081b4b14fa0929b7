import SimulatedFirebase

/// The Heritage Congregation website as `syncKiddushCalendar` and `syncCommunityOccasions` scrape
/// it (docs/domain.md, "KNB website syncs"): a homepage with the kiddush calendar table and the
/// community occasions sections, edited by the office at `editTimes`. Each edit touches one
/// calendar row (a new sponsor, a sponsorship cancelled, a changed occasion) or one occasion slot
/// (a notice posted, revised or taken down). Pure functions of the seed, the edit index and the
/// time (no stream is consumed), so an oracle can ask what the site said at any instant without
/// running the app; the app only sees the rendered HTML.
public struct KNBWebsite: Sendable, Hashable {
    /// The Shabbat dates the calendar table lists (ISO `yyyy-mm-dd`), in table order.
    public let dates: [String]
    /// Places for community occasions (each present or not, with its text, at a revision).
    public let occasionSlots: Int
    /// When the office edits the page, ascending: revision r holds the first r edits.
    public let editTimes: [Timestamp]
    /// Makes sites of different seeds differ.
    public let seed: UInt64
    /// How long a fetch of the homepage takes (an *estimate*: a small congregation site).
    public var fetchLatency = LatencyModel(median: .milliseconds(700), tailProbability: 0.02, tailMax: .seconds(8))
    /// The chance a fetch is slow (the site's host under load): 3–6 minutes, past the scheduler's
    /// 3-minute deadline, so the run can be retried while it still runs (MODEL_RULES §14).
    public var slowFetchProbability = 0.0
    /// The chance a fetch fails (HTTP 5xx after `fetchLatency`).
    public var fetchFailureProbability = 0.0

    /// A site listing `dates`, with `occasionSlots` occasion places, edited at `editTimes`.
    public init(dates: [String], occasionSlots: Int, editTimes: [Timestamp], seed: UInt64) {
        precondition(!dates.isEmpty, "the kiddush calendar lists at least one Shabbat")
        precondition(zip(editTimes, editTimes.dropFirst()).allSatisfy { $0 <= $1 }, "edit times must ascend")
        self.dates = dates
        self.occasionSlots = occasionSlots
        self.editTimes = editTimes
        self.seed = seed
    }

    /// One row of the kiddush calendar table, as the site shows it.
    public struct CalendarRow: Sendable, Hashable {
        /// The Shabbat (ISO date).
        public let date: String
        /// The week's Torah portion.
        public let parsha: String
        /// Whether someone sponsors the kiddush ("sponsored") or not ("available").
        public let status: String
        /// Who sponsors it ("" when available).
        public let sponsor: String
        /// What they celebrate ("" when available).
        public let occasion: String
    }

    /// One community occasion (a birth, an engagement, a yahrzeit, …).
    public struct Occasion: Sendable, Hashable {
        /// The section it is listed under (`births`, `engagements`, …).
        public let category: String
        /// The date the notice is about (ISO).
        public let effectiveDateIso: String
        /// The notice's text.
        public let rawText: String
    }

    /// The site's revision at `time`: how many edits it has had.
    public func revision(at time: Timestamp) -> Int {
        var low = 0, high = editTimes.count
        while low < high {
            let middle = (low + high) / 2
            if editTimes[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The calendar table at revision `revision`.
    public func calendar(revision: Int) -> [CalendarRow] {
        dates.indices.map { row($0, revision: revision) }
    }

    /// The occasions listed at revision `revision`, in slot order.
    public func occasions(revision: Int) -> [Occasion] {
        (0..<occasionSlots).compactMap { occasion($0, revision: revision) }
    }

    /// The homepage's HTML at `time` (what a fetch returns).
    public func html(at time: Timestamp) -> String {
        let revision = revision(at: time)
        var page = "<!DOCTYPE html>\n<html><head><title>Heritage Congregation</title></head><body>\n"
        // A counter that changes on every request: hashing the raw page would never skip.
        page += "<div class=\"visits\">Visits: \(time.unixNanoseconds / 1_000_000)</div>\n"
        page += "<table id=\"kiddush-calendar\">\n<tr><th>Shabbat</th><th>Parsha</th><th>Status</th><th>Sponsor</th><th>Occasion</th></tr>\n"
        for row in calendar(revision: revision) {
            page += "<tr data-date=\"\(row.date)\"><td>\(row.date)</td><td class=\"parsha\">\(Self.escape(row.parsha))</td>"
            page += "<td class=\"status\">\(row.status == "sponsored" ? "Sponsored" : "Available")</td>"
            page += "<td class=\"sponsor\">\(Self.escape(row.sponsor))</td><td class=\"occasion\">\(Self.escape(row.occasion))</td></tr>\n"
        }
        page += "</table>\n"
        let listed = occasions(revision: revision)
        for category in Self.categories {
            let items = listed.filter { $0.category == category.id }
            guard !items.isEmpty else { continue }
            page += "<section class=\"occasions\" data-category=\"\(category.id)\"><h3>\(category.label)</h3><ul>\n"
            for item in items {
                page += "<li data-date=\"\(item.effectiveDateIso)\">\(Self.escape(item.rawText))</li>\n"
            }
            page += "</ul></section>\n"
        }
        page += "</body></html>\n"
        return page
    }

    // MARK: Content

    /// The sections of the occasions part of the page, in page order.
    public static let categories: [(id: String, label: String)] = [
        ("births", "Births"), ("engagements", "Engagements"), ("weddings", "Weddings"),
        ("bar_bat_mitzvah", "Bar & Bat Mitzvah"), ("yahrzeit", "Yahrzeits"), ("condolences", "Condolences"),
        ("announcements", "Announcements"),
    ]

    static let parshiot = ["Bo", "Beshalach", "Yitro", "Mishpatim", "Terumah", "Tetzaveh", "Ki Tisa", "Vayakhel", "Pekudei", "Vayikra"]
    static let families = ["Cohen", "Levy & Katz", "Goldberg", "Friedman", "Rosen", "Adler", "Stein \"Sunny\"", "Weiss", "Klein", "Baum"]
    static let reasons = ["Bar mitzvah of their son", "In honour of a new grandchild", "Yahrzeit of a beloved father",
                          "A 50th anniversary", "Thanks for a safe recovery", "Aufruf <before the wedding>"]

    /// The last edit at or before `revision` that touched `target` (an index into the rows, then
    /// the occasion slots), or nil.
    private func lastEdit(of target: Int, revision: Int) -> Int? {
        var edit = revision
        while edit > 0 {
            if editTarget(edit) == target { return edit }
            edit -= 1
        }
        return nil
    }

    /// What edit `edit` (1-based) touches.
    private func editTarget(_ edit: Int) -> Int { Int(StableHash.mix(seed, UInt64(edit), 0xED17) % UInt64(dates.count + occasionSlots)) }

    private func row(_ index: Int, revision: Int) -> CalendarRow {
        let version = lastEdit(of: index, revision: revision) ?? 0
        let draw = StableHash.mix(seed, UInt64(index), UInt64(version) &+ 0xCA1)
        // Four in ten rows are sponsored, at the start and after each edit, so an edit of a
        // sponsored row cancels it six times in ten: the "cancelled date" of the design.
        let sponsored = draw % 10 < 4
        let date = dates[index]
        return CalendarRow(
            date: date, parsha: Self.parshiot[index % Self.parshiot.count], status: sponsored ? "sponsored" : "available",
            sponsor: sponsored ? "The \(Self.families[Int(draw >> 8) % Self.families.count]) family" : "",
            occasion: sponsored ? Self.reasons[Int(draw >> 16) % Self.reasons.count] : "")
    }

    private func occasion(_ slot: Int, revision: Int) -> Occasion? {
        let version = lastEdit(of: dates.count + slot, revision: revision) ?? 0
        let draw = StableHash.mix(seed, UInt64(slot), UInt64(version) &+ 0x0CC)
        guard draw % 10 < 6 else { return nil }  // taken down (or not posted yet)
        let category = Self.categories[Int(draw >> 8) % Self.categories.count]
        let day = 1 + Int(draw >> 20) % 28
        let family = Self.families[Int(draw >> 12) % Self.families.count]
        return Occasion(
            category: category.id, effectiveDateIso: "2026-02-\(day < 10 ? "0" : "")\(day)",
            rawText: "\(category.label): the \(family) family (notice \(slot).\(version))")
    }

    /// HTML-escapes `text` (`&`, `<`, `>`, `"`).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
