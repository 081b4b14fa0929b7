/// A composite index as `firestore.indexes.json` declares it: a collection group, a scope, and its
/// fields in order, each ascending, descending or `array-contains` (Firestore docs, "Index types").
public struct CompositeIndex: Sendable, Hashable, CustomStringConvertible {
    /// Whether an index serves queries of one collection or of every collection with its id.
    public enum Scope: String, Sendable, Hashable {
        case collection = "COLLECTION", collectionGroup = "COLLECTION_GROUP"
    }

    /// How one field is indexed.
    public enum Mode: Sendable, Hashable {
        case ascending, descending, contains

        /// The mode as the JSON file writes it (`"order": …` or `"arrayConfig": …`).
        var json: String {
            switch self {
            case .ascending: #""order": "ASCENDING""#
            case .descending: #""order": "DESCENDING""#
            case .contains: #""arrayConfig": "CONTAINS""#
            }
        }
    }

    /// One indexed field.
    public struct Field: Sendable, Hashable {
        /// The dotted field path.
        public var path: String
        /// How it is indexed.
        public var mode: Mode
        /// `path` indexed in `mode`.
        public init(_ path: String, _ mode: Mode) {
            self.path = path
            self.mode = mode
        }
    }

    /// The collection id (the last segment of the collections it serves).
    public var collectionGroup: String
    /// Collection or collection group.
    public var scope: Scope
    /// The fields, in index order.
    public var fields: [Field]

    /// An index of `collectionGroup` on `fields`.
    public init(_ collectionGroup: String, scope: Scope = .collection, _ fields: [Field]) {
        self.collectionGroup = collectionGroup
        self.scope = scope
        self.fields = fields
    }

    /// The index as one entry of `firestore.indexes.json`.
    public var description: String {
        let fields = fields.map { #"{"fieldPath": "\#($0.path)", \#($0.mode.json)}"# }.joined(separator: ", ")
        return #"{"collectionGroup": "\#(collectionGroup)", "queryScope": "\#(scope.rawValue)", "fields": [\#(fields)]}"#
    }
}
