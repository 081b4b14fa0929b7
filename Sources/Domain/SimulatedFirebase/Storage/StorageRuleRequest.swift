/// What a Cloud Storage security rule sees: the caller, the operation, the object's path and
/// segments, the stored object (`resource`), the incoming upload (`request.resource`) and
/// `lookup` for cross-service rules' `firestore.get()` of a document.
public struct StorageRuleRequest: Sendable {
    /// The caller, nil when signed out.
    public let auth: AuthContext?
    /// What the request does (get, create, update, delete; `list` is not modelled).
    public let operation: RuleOperation
    /// The object's full path.
    public let path: String
    /// The stored object (`resource`), nil if there is none.
    public let resource: StorageObject?
    /// The incoming upload (`request.resource`); nil for reads and deletes.
    public let upload: StorageUpload?
    /// Reads the latest committed fields of a Firestore document (`firestore.get()` in rules).
    public let lookup: @Sendable (DocumentPath) -> Fields?

    /// A request as the bucket builds it (public so apps' rules can be tested against tables).
    public init(auth: AuthContext?, operation: RuleOperation, path: String, resource: StorageObject?, upload: StorageUpload?,
                lookup: @escaping @Sendable (DocumentPath) -> Fields? = { _ in nil }) {
        self.auth = auth
        self.operation = operation
        self.path = path
        self.resource = resource
        self.upload = upload
        self.lookup = lookup
    }

    /// The path's segments (`social_posts/p1/0.jpg` → `["social_posts", "p1", "0.jpg"]`).
    public var segments: [String] { path.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }

    /// The `index`-th segment of the path, nil past its end.
    public func segment(_ index: Int) -> String? {
        let all = segments
        return index < all.count ? all[index] : nil
    }
}
