/// What one client request is, as fault messages and the fault ledger name it ("get honors/h1").
/// Typed, so the text is built only when a fault needs it: most requests succeed.
enum RequestLabel: Sendable, CustomStringConvertible {
    /// `getDocument()` of one document.
    case get(DocumentPath)
    /// A collection query.
    case query(String)
    /// A single-document write.
    case write(DocumentPath)
    /// A transaction's commit.
    case commit
    /// An HTTPS callable.
    case call(String)

    var description: String {
        switch self {
        case .get(let path): "get \(path)"
        case .query(let collection): "query \(collection)"
        case .write(let path): "write \(path)"
        case .commit: "commit"
        case .call(let name): "call \(name)"
        }
    }
}
