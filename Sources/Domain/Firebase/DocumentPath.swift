/// The address of one document: its collection path (which may be a sub-collection such as
/// `users/a@b.org/notifications`) and its id.
public struct DocumentPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let collection: String
    public let id: String

    public init(_ collection: String, _ id: String) {
        precondition(!collection.isEmpty && !id.isEmpty, "document path needs a collection and an id")
        precondition(!id.utf8.contains(UInt8(ascii: "/")), "document id must not contain '/': \(id)")
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

    public var description: String { "\(collection)/\(id)" }

    public static func < (lhs: DocumentPath, rhs: DocumentPath) -> Bool { lhs.description < rhs.description }
}
