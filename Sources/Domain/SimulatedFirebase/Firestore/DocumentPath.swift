/// The address of one document: its collection path (which may be a sub-collection such as
/// `users/a@b.org/notifications`) and its id.
public struct DocumentPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The collection path (`users/u1/notifications` for a sub-collection).
    public let collection: String
    /// The document id within the collection.
    public let id: String

    /// The document `id` in `collection`.
    public init(_ collection: String, _ id: String) {
        precondition(!collection.isEmpty && !id.isEmpty, "document path needs a collection and an id")
        // Over the contiguous bytes when there are (`UTF8View`'s iterator is slow on this hot path).
        precondition(!(id.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "/")) } ?? id.utf8.contains(UInt8(ascii: "/"))),
                     "document id must not contain '/': \(id)")
        self.collection = collection
        self.id = id
    }

    /// Parses `"honors/h1"` or `"users/a/notifications/n1"` (an even number of segments).
    public init(_ path: String) {
        let slash = path.lastIndex(of: "/")
        precondition(slash != nil, "document path \(path) has no collection")
        self.init(String(path[..<slash!]), String(path[path.index(after: slash!)...]))
    }

    /// A path inside a sub-collection of this document.
    public func child(_ subcollection: String, _ id: String) -> DocumentPath {
        DocumentPath("\(collection)/\(self.id)/\(subcollection)", id)
    }

    /// `collection/id`.
    public var description: String { "\(collection)/\(id)" }

    /// By the full path (the order transactions lock documents in). Within one collection the
    /// shared `collection/` prefix decides nothing ('/' neither reorders nor composes under
    /// Unicode normalization), so the ids alone decide, without building either path (and
    /// without `String`'s slip on one text in two normalization forms: DocumentPathOrderTests).
    public static func < (lhs: DocumentPath, rhs: DocumentPath) -> Bool {
        lhs.collection == rhs.collection ? lhs.id < rhs.id : lhs.description < rhs.description
    }
}
