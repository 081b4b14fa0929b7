import SimulatedFirebase

/// One client request of the rules differential: who asks, and what.
public struct RulesRequest: Sendable, CustomStringConvertible {
    /// What is asked.
    public enum Action: Sendable {
        /// `getDocument()`.
        case get(DocumentPath)
        /// A query (equality filters only: what rules can be proven on).
        case list(Query)
        /// A create (precondition: the document is missing); `fields` is the whole document.
        case create(DocumentPath, Fields)
        /// `setData()` over an existing document with the whole new document.
        case update(DocumentPath, Fields)
        /// `delete()` of an existing document.
        case delete(DocumentPath)
    }

    /// The caller, nil when signed out.
    public var caller: AuthContext?
    /// The request.
    public var action: Action

    /// The rules operation it is judged as.
    public var operation: RuleOperation {
        switch action {
        case .get: .get
        case .list: .list
        case .create: .create
        case .update: .update
        case .delete: .delete
        }
    }

    /// The collection pattern's concrete collection (`users/u1/notifications`).
    public var collection: String {
        switch action {
        case .get(let path), .create(let path, _), .update(let path, _), .delete(let path): path.collection
        case .list(let query): query.collection
        }
    }

    /// One line: caller, operation, target, and the written document.
    public var description: String {
        let who = caller.map { "\($0.uid)\($0.email.map { " <\($0)>" } ?? "")" } ?? "signed out"
        switch action {
        case .get(let path): return "\(who): get \(path)"
        case .list(let query): return "\(who): list \(query.collection)\(query.filter.map { " where \($0)" } ?? "")"
        case .create(let path, let fields): return "\(who): create \(path) \(fields)"
        case .update(let path, let fields): return "\(who): update \(path) to \(fields)"
        case .delete(let path): return "\(who): delete \(path)"
        }
    }
}
