import SimulatedFirebase

/// One write of a REST `commit`, as the SDKs build it from `set`, `set(merge:)`, `update`, `create`
/// and `delete`: fields, an update mask, field transforms and a precondition.
public struct RESTWrite: Sendable, Hashable {
    /// What must hold of the document before the write.
    public enum Precondition: Sendable, Hashable {
        /// `currentDocument.exists`: true for `update`, false for `create`.
        case exists(Bool)
        /// `currentDocument.updateTime`: the document is still at this version.
        case updateTime(Timestamp)
    }

    /// A transform applied after the fields (`increment`, `appendMissingElements`, …).
    public struct Transform: Sendable, Hashable {
        /// The field path in REST spelling.
        public var fieldPath: String
        /// The transform (`.increment`, `.arrayUnion`, `.arrayRemove` or `.serverTimestamp`).
        public var update: FieldUpdate
    }

    /// The document written.
    public var path: DocumentPath
    /// True for a delete (fields, mask and transforms are empty).
    public var isDelete: Bool
    /// The fields sent (for an update mask, the values of its paths that are set).
    public var fields: Fields
    /// The field paths (REST spelling) the write may change; nil replaces the whole document.
    public var mask: [String]?
    /// Transforms applied after the fields.
    public var transforms: [Transform]
    /// The precondition, if any.
    public var precondition: Precondition?

    /// A write of `fields` with an optional mask, transforms and precondition.
    public init(path: DocumentPath, fields: Fields, mask: [String]? = nil, transforms: [Transform] = [], precondition: Precondition? = nil) {
        self.path = path
        self.isDelete = false
        self.fields = fields
        self.mask = mask
        self.transforms = transforms
        self.precondition = precondition
    }

    /// A delete of `path`.
    public static func delete(_ path: DocumentPath, precondition: Precondition? = nil) -> RESTWrite {
        var write = RESTWrite(path: path, fields: [:], precondition: precondition)
        write.isDelete = true
        return write
    }

    /// The write the SDKs send for `operation` on `path`. `update` and `set(merge:)` name each
    /// changed path in the mask; a transform goes to `updateTransforms`, and a field deleted by
    /// `FieldValue.delete()` is in the mask but not in the fields.
    public init(_ operation: WriteOperation, at path: DocumentPath) {
        switch operation {
        case .create(let fields): self.init(path: path, fields: fields, precondition: .exists(false))
        case .set(let fields): self.init(path: path, fields: fields)
        case .merge(let updates): self.init(masked: updates, at: path, precondition: nil, mergeMaps: true)
        case .update(let updates): self.init(masked: updates, at: path, precondition: .exists(true), mergeMaps: false)
        case .delete: self = .delete(path)
        }
    }

    /// `mergeMaps`: the SDKs' `set(merge: true)`, whose mask names every leaf of a map value
    /// (an empty map names the field itself); `update` names the fields as given.
    private init(masked updates: FieldUpdates, at path: DocumentPath, precondition: Precondition?, mergeMaps: Bool) {
        var fields = Fields()
        var mask: [String] = []
        var transforms: [Transform] = []
        for (key, update) in updates {
            let restPath = RESTFieldPath.encode(dotted: key)
            switch update {
            case .set(.map(let map)) where mergeMaps && !map.isEmpty:
                mask += Self.leafPaths(map, under: key.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
                fields.setNested(dotted: key, to: .map(map))
            case .set(let value):
                mask.append(restPath)
                fields.setNested(dotted: key, to: value)
            case .delete:
                mask.append(restPath)
            case .increment, .arrayUnion, .arrayRemove, .serverTimestamp:
                transforms.append(Transform(fieldPath: restPath, update: update))
            }
        }
        self.init(path: path, fields: fields, mask: mask, transforms: transforms, precondition: precondition)
    }
}

extension RESTWrite {
    /// The REST paths of every leaf of `map` (a non-empty nested map is descended into).
    static func leafPaths(_ map: Fields, under prefix: [String]) -> [String] {
        map.flatMap { key, value -> [String] in
            if case .map(let nested) = value, !nested.isEmpty { return leafPaths(nested, under: prefix + [key]) }
            return [RESTFieldPath.encode(prefix + [key])]
        }
    }
}

extension Fields {
    /// Sets the field a dotted path names, making the maps on the way.
    mutating func setNested(dotted path: String, to value: Value) {
        let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        setNested(segments[...], to: value)
    }

    private mutating func setNested(_ segments: ArraySlice<String>, to value: Value) {
        let head = segments.first!
        if segments.count == 1 { self[head] = value; return }
        var nested = self[head]?.mapValue ?? [:]
        nested.setNested(segments.dropFirst(), to: value)
        self[head] = .map(nested)
    }
}
