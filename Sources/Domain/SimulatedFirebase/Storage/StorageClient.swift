/// One signed-in device's Cloud Storage SDK (`Storage.storage().reference(withPath:)`): uploads
/// (`putData`), downloads (`getData`) and deletes, each a request over the device's connection,
/// checked by the deployed Storage rules.
///
/// Fault model (docs/domain.md, "Cloud Storage"; every number an *estimate*): an upload's request
/// leg takes `storageUploadLatency` (the bytes travel), fails with probability
/// `storageUploadFailureProbability` before the bucket sees it (UNAVAILABLE, nothing stored,
/// counted as `storage-upload-failure` in the fault ledger), and its answer takes a client hop
/// (`networkLatency`). Downloads and deletes pay a client hop each way and do not fail
/// transiently. Every draw comes from the device's own `storage/<label>` stream, which exists
/// only once a scenario uploads, so no other stream's draws move.
public final class StorageClient: Sendable {
    /// The signed-in user, nil for a signed-out device.
    public let auth: AuthContext?
    /// The device's connection (shared with its `FirestoreClient`: offline is offline for both).
    public let network: ClientNetwork
    private let backend: Backend
    private let random: SharedRandom

    init(auth: AuthContext?, network: ClientNetwork, label: String, backend: Backend) {
        self.auth = auth
        self.network = network
        self.backend = backend
        self.random = SharedRandom(backend.env, stream: "storage/\(label)")
    }

    private var faults: BackendFaults { backend.faults }

    /// `putData(_:metadata:)`: stores `upload` at `path`. UNAVAILABLE (nothing stored) on a
    /// transient failure or offline; PERMISSION_DENIED when the rules refuse.
    @discardableResult
    public func upload(_ path: String, _ upload: StorageUpload) async throws(BackendError) -> StorageObject {
        guard network.isOnline else { throw .unavailable("device offline during upload of \(path)") }
        // Drawn up front so the stream's use does not depend on the outcome.
        let requestLatency = random.sample(faults.storageUploadLatency)
        let responseLatency = random.sample(faults.networkLatency)
        let failureProbability = backend.outages.probability(
            faults.storageUploadFailureProbability, of: .storage, atElapsed: backend.env.clock.elapsedNanoseconds)
        let fails = random.chance(failureProbability)
        try? await backend.env.clock.sleep(for: requestLatency)
        backend.faultLedger.opportunity(.storageUploadFailure, probability: failureProbability)  // once decided (ClientNetwork.send)
        if fails {
            backend.faultLedger.observe(.storageUploadFailure, subject: path)
            throw .unavailable("upload of \(path) failed mid-transfer; nothing was stored")
        }
        let result = Result { () throws(BackendError) in try backend.storage.clientUpload(path, upload, auth: auth) }
        try? await backend.env.clock.sleep(for: responseLatency)
        return try result.get()
    }

    /// `getData(maxSize:)`: the object at `path`. PERMISSION_DENIED (403) when the rules refuse,
    /// `objectNotFound` (404) when there is none.
    public func download(_ path: String) async throws(BackendError) -> StorageObject {
        try await hop { () throws(BackendError) in try backend.storage.clientRead(path, auth: auth) }
    }

    /// A GET of a download URL, as `AsyncImage` or `URLSession` makes it: no Firebase auth and no
    /// rules, only the URL's token. `objectNotFound` (404) without an object, PERMISSION_DENIED
    /// (403) when the token is not the object's (revoked, or none).
    public func fetch(url: String) async throws(BackendError) -> StorageObject {
        let backend = backend
        return try await hop { () throws(BackendError) in try backend.storage.urlRead(url, auth: auth, ledger: backend.faultLedger) }
    }

    /// `delete()`: removes the object at `path`. PERMISSION_DENIED (403), `objectNotFound` (404).
    public func delete(_ path: String) async throws(BackendError) {
        try await hop { () throws(BackendError) in try backend.storage.clientDelete(path, auth: auth) }
    }

    private func hop<T>(_ body: () throws(BackendError) -> T) async throws(BackendError) -> T {
        guard network.isOnline else { throw .unavailable("device offline during a storage request") }
        let requestLatency = random.sample(faults.networkLatency)
        let responseLatency = random.sample(faults.networkLatency)
        try? await backend.env.clock.sleep(for: requestLatency)
        let result = Result(catching: body)
        try? await backend.env.clock.sleep(for: responseLatency)
        return try result.get()
    }
}

extension StorageClient {
    /// The retry policy the careful apps use for uploads: UNAVAILABLE (nothing was stored, so a
    /// retry to the same path is a create again) is retried up to `attempts` times, 1 s, 2 s, …
    /// apart on the backend's clock; anything else is the caller's. Returns the object and the
    /// attempts it took.
    public func upload(_ path: String, _ upload: StorageUpload, attempts: Int) async throws(BackendError) -> (object: StorageObject, attempts: Int) {
        precondition(attempts >= 1, "an upload needs at least one attempt")
        var attempt = 1
        while true {
            do {
                return (try await self.upload(path, upload), attempt)
            } catch .unavailable where attempt < attempts && network.isOnline {
                try? await backend.env.clock.sleep(for: .seconds(attempt))
                attempt += 1
            }
        }
    }
}
