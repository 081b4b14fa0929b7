@testable import Domain
@testable import SimulatedFirebase
import Testing

/// The simulated congregation website and the syncs' parser: what the page says is what the
/// parser reads (entities included), known answers for dates, groups and the hash skip.
@Suite struct KNBWebsiteTests {
    static let dates = ["2026-02-07", "2026-02-14", "2026-02-21", "2026-02-28", "2026-03-07"]

    static func site(edits: Int = 40) -> KNBWebsite {
        KNBWebsite(dates: dates, occasionSlots: 8, editTimes: (0..<edits).map { Timestamp(unixNanoseconds: Int64($0 + 1) * 60_000_000_000) }, seed: 42)
    }

    @Test func theParserReadsBackEveryRevisionOfTheCalendar() {
        let site = Self.site()
        var sawEntity = false
        for revision in 0...site.editTimes.count {
            let time = Timestamp(unixNanoseconds: Int64(revision) * 60_000_000_000 + 1)
            #expect(site.revision(at: time) == revision)
            let html = site.html(at: time)
            sawEntity = sawEntity || html.contains("&amp;") || html.contains("&quot;") || html.contains("&lt;")
            #expect(KNBWebsiteParser.calendar(html) == site.calendar(revision: revision), "revision \(revision)")
            let parsed = KNBWebsiteParser.occasions(html)
            #expect(parsed.map(\.rawText).sorted() == site.occasions(revision: revision).map(\.rawText).sorted(), "revision \(revision)")
        }
        #expect(sawEntity, "the page never needed an escaped character: the decoder went untested")
    }

    @Test func rowsChangeOnlyWhereAnEditTouchedThemAndSomeAreCancelled() {
        let site = Self.site()
        var cancellations = 0, changedRows = 0
        for revision in 1...site.editTimes.count {
            let before = site.calendar(revision: revision - 1), after = site.calendar(revision: revision)
            let changed = zip(before, after).filter { $0 != $1 }
            #expect(changed.count <= 1, "one edit changed \(changed.count) rows")
            changedRows += changed.count
            cancellations += changed.filter { $0.0.status == "sponsored" && $0.1.status == "available" }.count
        }
        #expect(changedRows >= 5 && cancellations >= 1, "edits changed \(changedRows) rows, cancelled \(cancellations)")
    }

    @Test func theHashIgnoresTheVisitCounterButNotTheContent() {
        let site = Self.site(edits: 0)
        let early = site.html(at: Timestamp(unixNanoseconds: 1_000_000_000)), late = site.html(at: Timestamp(unixNanoseconds: 9_000_000_000))
        #expect(early != late)
        #expect(KNBWebsiteParser.contentHash(KNBWebsiteParser.calendar(early)) == KNBWebsiteParser.contentHash(KNBWebsiteParser.calendar(late)))
        var rows = KNBWebsiteParser.calendar(early)
        let first = rows[0]
        rows[0] = KNBWebsite.CalendarRow(date: first.date, parsha: first.parsha, status: "available", sponsor: "", occasion: first.occasion + "x")
        #expect(KNBWebsiteParser.contentHash(rows) != KNBWebsiteParser.contentHash(KNBWebsiteParser.calendar(early)))
        #expect(StableHash.hex(fnv1a64("")) == "cbf29ce484222325")
        #expect(StableHash.hex(fnv1a64("a")) == "af63dc4c8601ec8c")
    }

    @Test(arguments: [
        ("yahrzeit", "time_sensitive"), ("condolences", "time_sensitive"), ("births", "celebration"),
        ("bar_bat_mitzvah", "celebration"), ("announcements", "notice"),
    ])
    func occasionsAreGroupedAsDocumented(category: String, group: String) {
        let html = "<section class=\"occasions\" data-category=\"\(category)\"><h3>X &amp; Y</h3><ul>\n<li data-date=\"2026-02-03\">A &lt;b&gt; &quot;c&quot;</li>\n</ul></section>"
        let parsed = KNBWebsiteParser.occasions(html)
        #expect(parsed.count == 1)
        #expect(parsed.first?.group == group)
        #expect(parsed.first?.rawText == "A <b> \"c\"")
        #expect(parsed.first?.categoryLabel == "X & Y")
        #expect(parsed.first?.id.hasPrefix("\(category)-2026-02-03-") == true)
    }

    @Test func aPageWithoutTheTableParsesToNothing() {
        #expect(KNBWebsiteParser.calendar("<html><body>Site under maintenance</body></html>").isEmpty)
        #expect(KNBWebsiteParser.calendar("<table id=\"kiddush-calendar\"><tr data-date=\"2026-02-07\"><td class=\"status\">Sponsored").isEmpty)
    }
}
