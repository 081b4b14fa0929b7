import SimulatedFirebase

/// Every named variant of every app in one list, for `rehearse` to print and parse by name.
///
/// Every app has one `…Variant` enum (`AppVariant`: `careful` the default, one design selected
/// per app); this catalog only gathers names and summaries.
public enum AppVariantCatalog {
    /// One variant: the app it belongs to, its kebab-case name and what it gets wrong.
    public struct Entry: Sendable, Equatable {
        /// The app ("knb", "ufree", "stampbook", "inspired", "safensound").
        public let app: String
        /// The variant's kebab-case name.
        public let name: String
        /// What the variant gets wrong.
        public let summary: String
    }

    /// The five apps' variant types, in catalog order.
    static let apps: [any AppVariant.Type] = [
        KNBVariant.self, UFreeVariant.self, StampbookVariant.self, InspiredVariant.self, SafeNSoundVariant.self,
    ]

    /// All variants, grouped by app in a fixed order (KNB, UFree, Stampbook, Inspired, SafeNSound).
    public static var entries: [Entry] { apps.flatMap { entries(of: $0) } }

    /// The variants of `app` ("knb", "ufree", "stampbook", "inspired", "safensound").
    public static func entries(for app: String) -> [Entry] { entries.filter { $0.app == app } }

    private static func entries<V: AppVariant>(of type: V.Type) -> [Entry] {
        V.allCases.map { Entry(app: V.app, name: $0.rawValue, summary: $0.summary) }
    }
}
