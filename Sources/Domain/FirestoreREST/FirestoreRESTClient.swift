import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimulatedFirebase

/// A client of Firestore's v1 REST API (production's, which the Firestore emulator serves too):
/// reads through `batchGet` (transactional reads included), `commit` with writes, transforms and
/// preconditions, `runQuery`, read-write and read-only transactions, and the emulator's own
/// endpoints (reset, rules). Foundation's `URLSession`: no dependency beyond the toolchain
/// (docs/real-firestore.md says why and what it costs).
public final class FirestoreRESTClient: Sendable {
    /// `http://127.0.0.1:8080` for an emulator, `https://firestore.googleapis.com` for production.
    public let baseURL: URL
    /// The project id.
    public let project: String
    /// The database id (`(default)`).
    public let database: String
    /// Who the requests speak for.
    public let credential: RESTCredential
    private let session: URLSession

    /// A client of `baseURL` speaking for `credential`.
    public convenience init(baseURL: URL, project: String, database: String = "(default)", credential: RESTCredential = .owner, timeout: Duration = .seconds(30)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        configuration.httpMaximumConnectionsPerHost = 16
        self.init(baseURL: baseURL, project: project, database: database, credential: credential,
                  session: URLSession(configuration: configuration))
    }

    private init(baseURL: URL, project: String, database: String, credential: RESTCredential, session: URLSession) {
        self.baseURL = baseURL
        self.project = project
        self.database = database
        self.credential = credential
        self.session = session
    }

    /// The same server, credential and connections, for another project.
    public func inProject(_ project: String) -> FirestoreRESTClient {
        FirestoreRESTClient(baseURL: baseURL, project: project, database: database, credential: credential, session: session)
    }

    /// The same server and connections, speaking for `credential`.
    public func speaking(for credential: RESTCredential) -> FirestoreRESTClient {
        FirestoreRESTClient(baseURL: baseURL, project: project, database: database, credential: credential, session: session)
    }

    /// `projects/P/databases/D/documents`.
    public var documentsRoot: String { "projects/\(project)/databases/\(database)/documents" }

    /// A document's resource name.
    public func name(_ path: DocumentPath) -> String { "\(documentsRoot)/\(path)" }

    /// The path a resource name names.
    func path(ofName name: String) throws(RESTError) -> DocumentPath {
        let prefix = documentsRoot + "/"
        guard name.hasPrefix(prefix), name.dropFirst(prefix.count).contains("/") else { throw .malformedResponse("not a document name: \(name)") }
        return DocumentPath(String(name.dropFirst(prefix.count)))
    }

    // MARK: Reads

    /// The documents at `paths`, in the order asked (missing ones with nil fields); inside
    /// `transaction` when given (the emulator's transactional reads go through batchGet).
    public func batchGet(_ paths: [DocumentPath], transaction: String? = nil, readTime: Timestamp? = nil) async throws(RESTError) -> [RESTDocument] {
        var body: [String: Any] = ["documents": paths.map(name)]
        if let transaction { body["transaction"] = transaction }
        if let readTime { body["readTime"] = RFC3339.format(readTime) }
        let answer = try await post("\(documentsRoot):batchGet", body)
        var found: [DocumentPath: RESTDocument] = [:]
        for entry in try Self.stream(answer) {
            if let document = entry["found"] as? [String: Any] {
                let parsed = try self.document(document)
                found[parsed.path] = parsed
            } else if let missing = entry["missing"] as? String {
                let path = try path(ofName: missing)
                found[path] = RESTDocument(path: path, fields: nil)
            }
        }
        return paths.map { found[$0] ?? RESTDocument(path: $0, fields: nil) }
    }

    /// One document (nil fields when missing).
    public func get(_ path: DocumentPath, transaction: String? = nil) async throws(RESTError) -> RESTDocument {
        try await batchGet([path], transaction: transaction)[0]
    }

    /// The documents a structured query returns, in order. `parent` is the document whose
    /// sub-collections are queried (nil: the database root).
    public func runQuery(_ structuredQuery: [String: Any], parent: DocumentPath? = nil, transaction: String? = nil) async throws(RESTError) -> [RESTDocument] {
        var body: [String: Any] = ["structuredQuery": structuredQuery]
        if let transaction { body["transaction"] = transaction }
        let resource = parent.map { "\(documentsRoot)/\(Self.percentEncoded($0.description))" } ?? documentsRoot
        let answer = try await post("\(resource):runQuery", body)
        var documents: [RESTDocument] = []
        for entry in try Self.stream(answer) {
            if let document = entry["document"] as? [String: Any] { documents.append(try self.document(document)) }
        }
        return documents
    }

    // MARK: Writes and transactions

    /// Commits `writes` atomically (in `transaction` when given); returns the commit time.
    @discardableResult
    public func commit(_ writes: [RESTWrite], transaction: String? = nil) async throws(RESTError) -> Timestamp? {
        try await commitAnswer(writes, transaction: transaction).commitTime
    }

    /// `commit`, with each write's update time as the server answered it: the commit time when the
    /// write changed its document, the document's earlier update time when it changed nothing,
    /// nil for a delete.
    public func commitAnswer(_ writes: [RESTWrite], transaction: String? = nil) async throws(RESTError) -> (commitTime: Timestamp?, updateTimes: [Timestamp?]) {
        var body: [String: Any] = ["writes": writes.map(encode)]
        if let transaction { body["transaction"] = transaction }
        let answer = try await post("\(documentsRoot):commit", body) as? [String: Any]
        let commitTime = (answer?["commitTime"] as? String).flatMap { try? RFC3339.parse($0) }
        let results = answer?["writeResults"] as? [[String: Any]] ?? []
        return (commitTime, results.map { ($0["updateTime"] as? String).flatMap { try? RFC3339.parse($0) } })
    }

    /// Begins a transaction; read-only ones take no locks and may read at `readTime`.
    public func beginTransaction(readOnly: Bool = false, readTime: Timestamp? = nil) async throws(RESTError) -> String {
        var options: [String: Any] = [:]
        if readOnly {
            options["readOnly"] = readTime.map { ["readTime": RFC3339.format($0)] } ?? [String: Any]()
        } else {
            options["readWrite"] = [String: Any]()
        }
        let answer = try await post("\(documentsRoot):beginTransaction", ["options": options])
        guard let id = (answer as? [String: Any])?["transaction"] as? String else { throw .malformedResponse("beginTransaction returned no transaction") }
        return id
    }

    /// Ends a transaction without committing it.
    public func rollback(_ transaction: String) async throws(RESTError) {
        _ = try await post("\(documentsRoot):rollback", ["transaction": transaction])
    }

    // MARK: The emulator's own endpoints

    /// Deletes every document of the database (the emulator's reset endpoint).
    public func resetEmulator() async throws(RESTError) {
        _ = try await send("DELETE", "emulator/v1/projects/\(project)/databases/\(database)/documents", body: nil)
    }

    /// Replaces the emulator's security rules with `source` (a `firestore.rules` file's text).
    public func loadRules(_ source: String) async throws(RESTError) {
        let body: [String: Any] = ["rules": ["files": [["name": "firestore.rules", "content": source]]]]
        _ = try await send("PUT", "emulator/v1/projects/\(project):securityRules", body: body)
    }

    // MARK: Encoding

    func encode(_ write: RESTWrite) -> [String: Any] {
        var object: [String: Any] = [:]
        if write.isDelete {
            object["delete"] = name(write.path)
        } else {
            object["update"] = ["name": name(write.path), "fields": RESTValue.encode(write.fields)]
            if let mask = write.mask { object["updateMask"] = ["fieldPaths": mask] }
            if !write.transforms.isEmpty { object["updateTransforms"] = write.transforms.map(Self.encode) }
        }
        switch write.precondition {
        case .exists(let exists)?: object["currentDocument"] = ["exists": exists]
        case .updateTime(let time)?: object["currentDocument"] = ["updateTime": RFC3339.format(time)]
        case nil: break
        }
        return object
    }

    static func encode(_ transform: RESTWrite.Transform) -> [String: Any] {
        var object: [String: Any] = ["fieldPath": transform.fieldPath]
        switch transform.update {
        case .increment(let operand): object["increment"] = RESTValue.encode(operand)
        case .arrayUnion(let elements): object["appendMissingElements"] = ["values": elements.map { RESTValue.encode($0) }]
        case .arrayRemove(let elements): object["removeAllFromArray"] = ["values": elements.map { RESTValue.encode($0) }]
        case .serverTimestamp: object["setToServerValue"] = "REQUEST_TIME"
        case .set, .delete: preconditionFailure("a plain set or delete is not a transform")
        }
        return object
    }

    func document(_ object: [String: Any]) throws(RESTError) -> RESTDocument {
        guard let name = object["name"] as? String else { throw .malformedResponse("a document without a name") }
        return RESTDocument(
            path: try path(ofName: name), fields: try RESTValue.decode(fields: object["fields"] as? [String: Any] ?? [:]),
            updateTime: (object["updateTime"] as? String).flatMap { try? RFC3339.parse($0) },
            createTime: (object["createTime"] as? String).flatMap { try? RFC3339.parse($0) })
    }

    /// A streamed answer (batchGet, runQuery): a JSON array of objects.
    static func stream(_ answer: Any) throws(RESTError) -> [[String: Any]] {
        guard let entries = answer as? [[String: Any]] else { throw .malformedResponse("expected a JSON array, got \(type(of: answer))") }
        return entries
    }

    /// Each path segment percent-encoded for a URL (ids may hold any character but `/`).
    static func percentEncoded(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }.joined(separator: "/")
    }

    // MARK: Transport

    func post(_ resource: String, _ body: [String: Any]) async throws(RESTError) -> Any {
        try await send("POST", "v1/\(resource)", body: body)
    }

    /// One HTTP exchange; the parsed JSON answer, or the error it carries.
    func send(_ method: String, _ relative: String, body: [String: Any]?) async throws(RESTError) -> Any {
        // Joined as text: the resource is already percent-encoded (ids may hold any character but
        // `/`), and `appendingPathComponent` would encode its `%` again.
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + "/" + relative) else {
            throw .malformedResponse("not a URL: \(baseURL.absoluteString)/\(relative)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let header = credential.header(project: project) { request.setValue(header, forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try Self.json(body)
        }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable("\(method) \(baseURL.absoluteString)/\(relative): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw .malformedResponse("not an HTTP answer") }
        let parsed = data.isEmpty ? [String: Any]() : try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard (200..<300).contains(http.statusCode) else {
            let error = (parsed as? [String: Any])?["error"] as? [String: Any]
            guard let status = error?["status"] as? String else {
                throw .malformedResponse("HTTP \(http.statusCode) without a Firestore error: \(String(decoding: data.prefix(200), as: UTF8.self))")
            }
            throw .status(code: status, httpStatus: http.statusCode, message: error?["message"] as? String ?? "")
        }
        guard let parsed else { throw .malformedResponse("an answer that is not JSON: \(String(decoding: data.prefix(200), as: UTF8.self))") }
        return parsed
    }

    static func json(_ object: [String: Any]) throws(RESTError) -> Data {
        do { return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) } catch {
            throw .malformedResponse("the request could not be encoded: \(error)")
        }
    }
}

extension String {
    /// The text without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
