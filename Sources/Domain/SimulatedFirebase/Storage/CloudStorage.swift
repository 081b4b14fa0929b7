import Synchronization

/// The simulated Cloud Storage bucket of a project (docs/domain.md, "Cloud Storage"): objects by
/// path with size, content type, custom metadata and a generation, and the deployed Storage
/// security rules, evaluated per client request (`StorageClient`) with the stored object
/// (`resource`), the upload (`request.resource`) and cross-service `firestore.get()`.
///
/// Admin calls (`put`, `remove`, `object(at:)`, `objects`) bypass the rules and take no time, as
/// the Admin SDK inside a function or a checker's view does.
public final class CloudStorage: Sendable {
    private struct State {
        var objects: [String: StorageObject] = [:]
        var generation: Int64 = 0
        /// Tokens handed out so far (each write and each revocation takes the next).
        var tokens: Int64 = 0
        var rules = StorageRules()
    }
    private let state = Mutex(State())
    private let env: DomainEnvironment
    private let coverage: CoverageLedger
    private let firestore: Firestore

    init(env: DomainEnvironment, coverage: CoverageLedger, firestore: Firestore) {
        self.env = env
        self.coverage = coverage
        self.firestore = firestore
    }

    /// The prefix of every download URL the bucket hands out (`downloadURL(for:)`).
    public static let urlPrefix = "https://storage.example/o/"

    /// A URL naming `path` without a token: it reads nothing by itself (`fetch(url:)` refuses it);
    /// apps that read through the SDK keep it to name the object.
    public static func downloadURL(for path: String) -> String { urlPrefix + path }

    /// The download URL of `object` (`getDownloadURL()`, what apps store in Firestore documents):
    /// its path and its download token, which lets anyone holding the URL read the object
    /// without the rules until the token is revoked (MODEL_RULES §28 in docs/domain.md).
    public static func downloadURL(for object: StorageObject) -> String {
        urlPrefix + object.path + "?alt=media&token=" + object.downloadToken
    }

    /// The token a download URL carries, nil when it has none.
    public static func token(fromURL url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") { return String(pair.dropFirst("token=".count)) }
        return nil
    }

    /// The object path a download URL names (query such as `?v=123` dropped), nil for a URL of
    /// another host.
    public static func path(fromURL url: String) -> String? {
        guard url.hasPrefix(urlPrefix) else { return nil }
        let rest = url.dropFirst(urlPrefix.count)
        let path = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return path.isEmpty ? nil : path
    }

    /// Deploys Storage rules for client requests (replacing earlier ones).
    public func setRules(_ rules: StorageRules) {
        state.withLock { $0.rules = rules }
        for pattern in rules.patterns { coverage.declare(.rule, StorageRules.coverageName(pattern)) }
    }

    /// The stored object at `path`, nil if there is none (admin view).
    public func object(at path: String) -> StorageObject? { state.withLock { $0.objects[path] } }

    /// Every stored object, sorted by path (admin view, what checkers read).
    public var objects: [StorageObject] {
        state.withLock { state in state.objects.keys.sorted().map { state.objects[$0]! } }
    }

    /// Writes `upload` at `path` without rules or latency (Admin SDK, scenario set-up).
    @discardableResult
    public func put(_ path: String, _ upload: StorageUpload) -> StorageObject {
        store(path, upload)
    }

    /// Removes the object at `path` without rules (Admin SDK); false if there was none.
    @discardableResult
    public func remove(_ path: String) -> Bool { state.withLock { $0.objects.removeValue(forKey: path) != nil } }

    /// Revokes the download tokens of the object at `path` (the console's "Revoke", or the Admin
    /// SDK setting `firebaseStorageDownloadTokens`): every URL handed out before stops reading it
    /// (403); the object, with its new token, is returned. Nil if there is none.
    @discardableResult
    public func revokeDownloadTokens(_ path: String) -> StorageObject? {
        state.withLock { state in
            guard let object = state.objects[path] else { return nil }
            state.tokens += 1
            let revoked = object.withDownloadToken(Self.token(state.tokens))
            state.objects[path] = revoked
            return revoked
        }
    }

    /// The `n`th token: unique in the bucket (production's are random UUIDs; the simulation's
    /// need only be unguessable by the apps, which never forge one).
    private static func token(_ n: Int64) -> String { "tok-\(n)" }

    /// Drops every object and the rules (`Backend.terminate`).
    func terminate() { state.withLock { $0 = State() } }

    private func store(_ path: String, _ upload: StorageUpload) -> StorageObject {
        let now = env.clock.now
        return state.withLock { state in
            state.generation += 1
            state.tokens += 1
            let object = StorageObject(
                path: path, sizeBytes: upload.sizeBytes, contentType: upload.contentType, metadata: upload.metadata,
                generation: state.generation, updated: now, downloadToken: Self.token(state.tokens))
            state.objects[path] = object
            return object
        }
    }

    /// Evaluates the rules for one client request and counts it (coverage).
    private func authorize(_ auth: AuthContext?, _ operation: RuleOperation, _ path: String, resource: StorageObject?, upload: StorageUpload?) -> Bool {
        let firestore = firestore
        let request = StorageRuleRequest(
            auth: auth, operation: operation, path: path, resource: resource, upload: upload, lookup: { firestore.liveFields($0) })
        let decision = state.withLock { $0.rules }.decide(request)
        let name = decision.rule == SecurityRules.noMatchingRule ? "storage: \(SecurityRules.noMatchingRule)" : StorageRules.coverageName(decision.rule)
        coverage.count(.rule, name, failed: !decision.allowed)
        return decision.allowed
    }

    /// The server side of a client upload: `create` when the path is free, `update` when an object
    /// is there (a rule may forbid it); PERMISSION_DENIED (Storage's 403 `unauthorized`) if refused.
    func clientUpload(_ path: String, _ upload: StorageUpload, auth: AuthContext?) throws(BackendError) -> StorageObject {
        let existing = object(at: path)
        guard authorize(auth, existing == nil ? .create : .update, path, resource: existing, upload: upload) else {
            throw .permissionDenied(operation: "storage \(existing == nil ? "create" : "update")", path: path)
        }
        return store(path, upload)
    }

    /// The server side of a client download (`getData`): 403 when the rules refuse (also for a
    /// missing object the rule needs `resource` for), 404 `objectNotFound` when allowed but absent.
    func clientRead(_ path: String, auth: AuthContext?) throws(BackendError) -> StorageObject {
        let existing = object(at: path)
        guard authorize(auth, .get, path, resource: existing, upload: nil) else { throw .permissionDenied(operation: "storage get", path: path) }
        guard let existing else { throw .objectNotFound(path: path) }
        return existing
    }

    /// The server side of a GET of a download URL (`URLSession`, `AsyncImage`): no rules, only the
    /// token. 404 when there is no object, 403 when the URL's token is not the object's. Serving
    /// an object the rules would refuse `auth` counts `download-url-bypass`.
    func urlRead(_ url: String, auth: AuthContext?, ledger: FaultLedger) throws(BackendError) -> StorageObject {
        guard let path = Self.path(fromURL: url) else { throw .invalidArgument("\(url) is not a download URL of this bucket") }
        guard let existing = object(at: path) else { throw .objectNotFound(path: path) }
        guard let token = Self.token(fromURL: url), token == existing.downloadToken else {
            throw .permissionDenied(operation: "storage download URL (token not valid)", path: path)
        }
        let request = StorageRuleRequest(
            auth: auth, operation: .get, path: path, resource: existing, upload: nil, lookup: { [firestore] in firestore.liveFields($0) })
        if !state.withLock({ $0.rules }).decide(request).allowed { ledger.observe(.downloadURLBypass, subject: path) }
        return existing
    }

    /// The server side of a client delete: 403 if refused, 404 if allowed but absent.
    func clientDelete(_ path: String, auth: AuthContext?) throws(BackendError) {
        let existing = object(at: path)
        guard authorize(auth, .delete, path, resource: existing, upload: nil) else { throw .permissionDenied(operation: "storage delete", path: path) }
        guard existing != nil, remove(path) else { throw .objectNotFound(path: path) }
    }
}
