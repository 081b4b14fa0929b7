/// Every named variant of every app in one list, for `rehearse` to print and parse by name.
///
/// Each app keeps its own `…Variant` enum (KNB's is a set of flags; the others select one design
/// at a time, `careful` being the default); this catalog only gathers names and summaries.
public enum AppVariantCatalog {
    /// One variant: the app it belongs to, its kebab-case name and what it gets wrong.
    public struct Entry: Sendable, Equatable {
        public let app: String
        public let name: String
        public let summary: String
    }

    /// All variants, grouped by app in a fixed order (KNB, UFree, Stampbook, Inspired, SafeNSound).
    public static var entries: [Entry] {
        KNBVariant.allCases.map { Entry(app: "knb", name: $0.rawValue, summary: $0.summary) }
            + UFreeVariant.allCases.map { Entry(app: "ufree", name: $0.rawValue, summary: $0.summary) }
            + StampbookVariant.allCases.map { Entry(app: "stampbook", name: $0.rawValue, summary: $0.summary) }
            + InspiredVariant.allCases.map { Entry(app: "inspired", name: $0.rawValue, summary: $0.summary) }
            + SafeNSoundVariant.allCases.map { Entry(app: "safensound", name: $0.rawValue, summary: $0.summary) }
    }

    /// The variants of `app` ("knb", "ufree", "stampbook", "inspired", "safensound").
    public static func entries(for app: String) -> [Entry] { entries.filter { $0.app == app } }
}
