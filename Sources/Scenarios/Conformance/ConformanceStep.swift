import SimulatedFirebase

/// One step of a conformance program, sent alike to the simulated Firebase and to a real Firestore.
public enum ConformanceStep: Sendable, Hashable, CustomStringConvertible {
    /// An atomic batch of writes (the admin SDK's `batch().commit()`).
    case commit([ConformanceWrite])
    /// One document read.
    case get(DocumentPath)
    /// A query.
    case query(Query)
    /// A read-write transaction: reads, then writes, then commit.
    case transaction(reads: [DocumentPath], writes: [ConformanceWrite])
    /// A read-only transaction's reads: at the transaction's start (`commitsBack` nil) or at a
    /// `readTime`, the instant after the commit `commitsBack` successful commits before the latest
    /// (0: the latest; past the oldest: the oldest). Counting commits, not steps, keeps its meaning
    /// when the shrinker removes steps.
    case readOnlyTransaction(reads: [DocumentPath], commitsBack: Int?)

    /// The behaviours this step exercises (rows of the agreement table).
    public var behaviours: [String] {
        switch self {
        case .commit(let writes): return (writes.count > 1 ? ["batch"] : []) + writes.flatMap(\.behaviours)
        case .get: return ["get"]
        case .query(let query): return Self.behaviours(of: query)
        case .transaction(_, let writes): return ["transaction"] + writes.flatMap(\.behaviours)
        case .readOnlyTransaction(_, let back): return back == nil ? ["read-only transaction"] : ["read-only transaction (readTime)"]
        }
    }

    static func behaviours(of query: Query) -> [String] {
        var found: [String] = []
        func visit(_ filter: QueryFilter) {
            switch filter {
            case .field(let field, let op, _): found.append("query \(op.rawValue.lowercased())" + (field.contains(".") ? " (nested)" : ""))
            case .unary(_, let test): found.append("query \(test.rawValue.lowercased())")
            case .and(let filters): found.append("query and"); filters.forEach(visit)
            case .or(let filters): found.append("query or"); filters.forEach(visit)
            }
        }
        if let filter = query.filter { visit(filter) }
        if !query.orderBy.isEmpty { found.append("query order by") }
        if query.start != nil || query.end != nil { found.append("query cursor") }
        if query.limit != nil { found.append(query.limitToLast ? "query limit to last" : "query limit") }
        if query.allDescendants { found.append("query collection group") }
        if found.isEmpty { found.append("query all") }
        return found
    }

    /// The step as one line of a printed program.
    public var description: String {
        switch self {
        case .commit(let writes): return "commit [" + writes.map(\.description).joined(separator: "; ") + "]"
        case .get(let path): return "get \(path)"
        case .query(let query): return "query \(ConformanceStep.describe(query))"
        case .transaction(let reads, let writes):
            return "transaction reads [\(reads.map(\.description).joined(separator: ", "))] writes [" + writes.map(\.description).joined(separator: "; ") + "]"
        case .readOnlyTransaction(let reads, let back):
            let at = back.map { " at the read time after the commit \($0) before the latest" } ?? ""
            return "read-only transaction\(at) reads [\(reads.map(\.description).joined(separator: ", "))]"
        }
    }

    static func describe(_ query: Query) -> String {
        var parts = [query.allDescendants ? "group \(query.collection)" : query.collection]
        if let filter = query.filter { parts.append("where \(describe(filter))") }
        if !query.orderBy.isEmpty { parts.append("order by " + query.orderBy.map { "\($0.field)\($0.descending ? " desc" : "")" }.joined(separator: ", ")) }
        if let start = query.start { parts.append("\(start.inclusive ? "startAt" : "startAfter") \(start.values)") }
        if let end = query.end { parts.append("\(end.inclusive ? "endAt" : "endBefore") \(end.values)") }
        if let limit = query.limit { parts.append("\(query.limitToLast ? "limitToLast" : "limit") \(limit)") }
        return parts.joined(separator: " ")
    }

    static func describe(_ filter: QueryFilter) -> String {
        switch filter {
        case .field(let field, let op, let value): "\(field) \(op.rawValue) \(value)"
        case .unary(let field, let test): "\(field) \(test.rawValue)"
        case .and(let filters): "(" + filters.map(describe).joined(separator: " AND ") + ")"
        case .or(let filters): "(" + filters.map(describe).joined(separator: " OR ") + ")"
        }
    }
}

/// One write of a step: a document and what the SDK call does to it.
public struct ConformanceWrite: Sendable, Hashable, CustomStringConvertible {
    /// The document written.
    public var path: DocumentPath
    /// The SDK call.
    public var operation: WriteOperation

    /// `operation` on `path`.
    public init(_ path: DocumentPath, _ operation: WriteOperation) {
        self.path = path
        self.operation = operation
    }

    /// The behaviours this write exercises.
    var behaviours: [String] {
        var found = ["write \(Self.name(operation))"]
        let updates: FieldUpdates? = switch operation {
        case .merge(let updates), .update(let updates): updates
        default: nil
        }
        for (key, update) in updates ?? [:] {
            switch update {
            case .increment: found.append("transform increment")
            case .arrayUnion: found.append("transform arrayUnion")
            case .arrayRemove: found.append("transform arrayRemove")
            case .serverTimestamp: found.append("transform serverTimestamp")
            case .delete: found.append("field delete")
            case .set(let value):
                if key.contains(".") { found.append("nested field path") }
                if case .map = value, case .merge = operation { found.append("merge with a map value") }
            }
        }
        return found
    }

    static func name(_ operation: WriteOperation) -> String {
        switch operation {
        case .create: "create"
        case .set: "set"
        case .merge: "set merge"
        case .update: "update"
        case .delete: "delete"
        }
    }

    /// `set c/x1 {…}`.
    public var description: String {
        switch operation {
        case .create(let fields), .set(let fields): "\(Self.name(operation)) \(path) \(fields)"
        case .merge(let updates), .update(let updates): "\(Self.name(operation)) \(path) {" + updates.map { "\($0.key): \($0.update)" }.joined(separator: ", ") + "}"
        case .delete: "delete \(path)"
        }
    }
}

extension ConformanceStep {
    /// The read time `commitsBack` names among `commits` (each side's instants after its
    /// successful commits, oldest first); nil without one or before any commit.
    static func readTime(_ commitsBack: Int?, commits: [Timestamp]) -> Timestamp? {
        guard let commitsBack, !commits.isEmpty else { return nil }
        return commits[max(0, commits.count - 1 - commitsBack)]
    }
}
