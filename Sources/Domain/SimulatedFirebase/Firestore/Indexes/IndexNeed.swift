/// What a query needs beyond the indexes Firestore keeps by itself (every field ascending,
/// descending and `array-contains`, in collection scope; Firestore docs, "Index types"), for one
/// conjunction of its filter.
enum IndexNeed: Sendable, Hashable {
    /// A composite index: the equality fields in any order (equality in either direction,
    /// `array-contains` as CONTAINS), then the order fields exactly. Several equality fields with
    /// one order field are also served by merging one index per equality field with the order field.
    case composite(collectionGroup: String, scope: CompositeIndex.Scope, equalities: [CompositeIndex.Field], order: [CompositeIndex.Field])
    /// A single-field index in collection-group scope (not kept by default; a `fieldOverrides`
    /// entry of the JSON file).
    case groupField(collectionGroup: String, CompositeIndex.Field)

    /// The index to create, for the error and the JSON file.
    var suggestion: String {
        switch self {
        case .composite(let group, let scope, let equalities, let order):
            return CompositeIndex(group, scope: scope, equalities + order).description
        case .groupField(let group, let field):
            return #"{"collectionGroup": "\#(group)", "fieldPath": "\#(field.path)", "indexes": [{\#(field.mode.json), "queryScope": "COLLECTION_GROUP"}]}"#
        }
    }
}
