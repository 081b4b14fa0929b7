import SimulatedFirebase

/// What `syncKiddushCalendar` and `syncCommunityOccasions` make of the homepage (the functions
/// "parse with Cheerio"): the kiddush calendar rows and the community occasions, with HTML
/// entities decoded, each occasion classified into a group with a sort rank and a deterministic
/// id, and a hash of the parsed content (not the raw page, whose visit counter changes on every
/// request) for the "skip write if content unchanged" comparison.
enum KNBWebsiteParser {
    /// A parsed community occasion as the sync writes it.
    struct Occasion: Equatable {
        let id: String
        let category: String
        let categoryLabel: String
        let effectiveDateIso: String
        let rawText: String
        let group: String
        let sortRank: Int
    }

    /// The rows of `<table id="kiddush-calendar">`, in page order.
    static func calendar(_ html: String) -> [KNBWebsite.CalendarRow] {
        guard let table = section(html, from: "<table id=\"kiddush-calendar\">", to: "</table>") else { return [] }
        var rows: [KNBWebsite.CalendarRow] = []
        var rest = table[...]
        while let open = rest.firstRange(of: "<tr data-date=\"") {
            rest = rest[open.upperBound...]
            guard let quote = rest.firstIndex(of: "\""), let close = rest.firstRange(of: "</tr>") else { break }
            let date = String(rest[..<quote])
            let cells = rest[..<close.lowerBound]
            rest = rest[close.upperBound...]
            let status = cell(cells, "status").lowercased() == "sponsored" ? "sponsored" : "available"
            rows.append(KNBWebsite.CalendarRow(
                date: date, parsha: cell(cells, "parsha"), status: status,
                sponsor: status == "sponsored" ? cell(cells, "sponsor") : "", occasion: status == "sponsored" ? cell(cells, "occasion") : ""))
        }
        return rows
    }

    /// The community occasions of every `<section class="occasions">`, in page order.
    static func occasions(_ html: String) -> [Occasion] {
        var result: [Occasion] = []
        var rest = html[...]
        while let open = rest.firstRange(of: "<section class=\"occasions\" data-category=\"") {
            rest = rest[open.upperBound...]
            guard let quote = rest.firstIndex(of: "\""), let close = rest.firstRange(of: "</section>") else { break }
            let category = String(rest[..<quote])
            var items = rest[..<close.lowerBound]
            rest = rest[close.upperBound...]
            let label = items.firstRange(of: "<h3>").flatMap { h3 in items[h3.upperBound...].firstRange(of: "</h3>").map { decode(items[h3.upperBound..<$0.lowerBound]) } } ?? category
            while let item = items.firstRange(of: "<li data-date=\"") {
                items = items[item.upperBound...]
                guard let dateEnd = items.firstIndex(of: "\""), let textStart = items.firstRange(of: ">"), let textEnd = items.firstRange(of: "</li>") else { break }
                let date = String(items[..<dateEnd])
                let text = decode(items[textStart.upperBound..<textEnd.lowerBound])
                items = items[textEnd.upperBound...]
                let group = Self.group(of: category)
                result.append(Occasion(
                    id: "\(category)-\(date)-\(StableHash.hex(fnv1a64("\(category)|\(date)|\(text)")).prefix(8))", category: category,
                    categoryLabel: label, effectiveDateIso: date, rawText: text, group: group,
                    sortRank: rank(group: group, date: date)))
            }
        }
        return result
    }

    /// The group a category is shown under.
    static func group(of category: String) -> String {
        switch category {
        case "yahrzeit", "condolences": return "time_sensitive"
        case "births", "engagements", "weddings", "bar_bat_mitzvah": return "celebration"
        default: return "notice"
        }
    }

    /// Time-sensitive first, then celebrations, then notices; by date inside a group.
    static func rank(group: String, date: String) -> Int {
        let base = group == "time_sensitive" ? 0 : group == "celebration" ? 1 : 2
        let day = Int(date.suffix(2)) ?? 0
        let month = Int(date.dropFirst(5).prefix(2)) ?? 0
        return base * 10_000 + month * 100 + day
    }

    /// A hash of the calendar rows (16 hex digits), for the skip-if-unchanged comparison.
    static func contentHash(_ rows: [KNBWebsite.CalendarRow]) -> String {
        StableHash.hex(fnv1a64(rows.map { "\($0.date)\u{1F}\($0.parsha)\u{1F}\($0.status)\u{1F}\($0.sponsor)\u{1F}\($0.occasion)" }.joined(separator: "\u{1E}")))
    }

    /// A hash of the occasions (16 hex digits).
    static func contentHash(_ occasions: [Occasion]) -> String {
        StableHash.hex(fnv1a64(occasions.map { "\($0.id)\u{1F}\($0.categoryLabel)\u{1F}\($0.rawText)" }.joined(separator: "\u{1E}")))
    }

    // MARK: Text

    private static func section(_ html: String, from start: String, to end: String) -> Substring? {
        guard let open = html.firstRange(of: start), let close = html[open.upperBound...].firstRange(of: end) else { return nil }
        return html[open.upperBound..<close.lowerBound]
    }

    private static func cell(_ row: Substring, _ name: String) -> String {
        guard let open = row.firstRange(of: "<td class=\"\(name)\">"), let close = row[open.upperBound...].firstRange(of: "</td>") else { return "" }
        return decode(row[open.upperBound..<close.lowerBound])
    }

    /// Decodes the entities the site uses (`&amp;` last, so `&amp;lt;` stays `&lt;`).
    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        return String(text).replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&#39;", with: "'").replacing("&amp;", with: "&")
    }
}
