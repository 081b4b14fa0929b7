import SimulatedFirebase

/// One app's security rules as the rules differential sees them: the deployable rules file, the
/// Swift rules the simulation enforces, who may call, and the documents requests are drawn over.
public struct RulesWorld: Sendable {
    /// One collection pattern and the documents drawn in it.
    public struct Collection: Sendable {
        /// The pattern, with `{name}` for each parent id (`users/{uid}/notifications`).
        public var pattern: String
        /// The document ids drawn (empty: the world's `ids`).
        public var ids: [String]
        /// The fields a drawn document may have, each with the values it may hold.
        public var fields: [Field]

        /// A collection of documents with `fields`, ids from `ids`.
        public init(_ pattern: String, ids: [String] = [], fields: [Field]) {
            self.pattern = pattern
            self.ids = ids
            self.fields = fields
        }
    }

    /// One field and the values drawn for it.
    public struct Field: Sendable {
        /// The field's name (top level).
        public var name: String
        /// The values it may hold.
        public var values: [Value]

        /// A field drawn from `values`.
        public init(_ name: String, _ values: [Value]) {
            self.name = name
            self.values = values
        }
    }

    /// The app's name as the CLI takes it (`knb`).
    public var app: String
    /// The rules file its team deploys.
    public var rulesText: String
    /// The rules the simulated Firebase enforces for it.
    public var rules: SecurityRules
    /// The signed-in callers drawn (a signed-out caller is drawn too).
    public var users: [AuthContext]
    /// The ids path wildcards are drawn from (`{uid}` in `users/{uid}/notifications`).
    public var ids: [String]
    /// The collections requests touch.
    public var collections: [Collection]

    /// A world of `collections` under `rules` (and `rulesText` for the real server).
    public init(app: String, rulesText: String, rules: SecurityRules, users: [AuthContext], ids: [String], collections: [Collection]) {
        self.app = app
        self.rulesText = rulesText
        self.rules = rules
        self.users = users
        self.ids = ids
        self.collections = collections
    }

    /// Every app's world, by name (`ufree-seed`: UFree under its seed's rules taken literally;
    /// `safensound-catch-all`: SafeNSound with a catch-all read rule left in).
    public static var all: [RulesWorld] { [.knb, .safeNSound, .safeNSoundCatchAll, .stampbook, .ufree, .ufreeSeed, .inspired] }
}
