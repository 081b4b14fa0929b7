import SimulatedFirebase
import Synchronization

extension StampbookApp {
    /// The largest stamp photo Storage accepts (the seed names no limit; docs/domain.md's choice).
    public static let photoBytesMaximum = 10 * StorageUpload.mebibyte
    /// Upload attempts per photo before the careful design drops it.
    public static let photoUploadAttempts = 3

    /// Stampbook's Storage rules (the seed has none; docs/domain.md): photos under
    /// `stamp_photos/{uid}/{stampId}/{fileName}`, readable by signed-in users, created and deleted
    /// only by `uid`, `image/*` up to `photoBytesMaximum`, never overwritten (each upload has its
    /// own name); every other path is denied.
    public static var storageRules: StorageRules {
        var rules = StorageRules()
        rules.match("stamp_photos/{uid}/{stampId}/{fileName}") { r in
            guard let auth = r.auth else { return false }
            let isOwner = r.segment(1) == auth.uid
            switch r.operation {
            case .get, .list: return true
            case .create:
                guard let upload = r.upload else { return false }
                return isOwner && upload.contentType.hasPrefix("image/") && upload.sizeBytes <= photoBytesMaximum
            case .update: return false
            case .delete: return isOwner
            }
        }
        return rules
    }

    /// The object path of photo `index` of one collect attempt (`batch` is new per attempt, so a
    /// double tap's two attempts never write or delete each other's photos).
    static func photoPath(_ userId: String, _ stampId: String, batch: String, index: Int) -> String {
        "stamp_photos/\(userId)/\(stampId)/\(batch)_\(index).jpg"
    }

    /// Collects `stampId` with photos (Stamp Collection Flow steps 4–7; § Parallel Task Groups:
    /// "Upload 4+ images simultaneously … Error handling per task"). Careful (docs/domain.md,
    /// Stampbook "Photos"): every photo uploads at once in a task group, each retried up to
    /// `photoUploadAttempts` times and dropped after that; then the one collect transaction writes
    /// `photoUrls` (on the record and its feed post) listing exactly the stored photos. A collect
    /// that does not commit (already collected, an error) deletes the photos it stored, unless a
    /// look at the record shows its own commit landed after all; when that look goes unanswered
    /// the photos stay undecided on the device until a later look (`finishPhotoCleanup`, first
    /// thing in the next collect; `photo-cleanup-needs-answer` never looks again).
    /// `photo-errors-per-task`: one attempt per photo, each task swallows its error, and
    /// `photoUrls` lists every planned photo.
    func collectStamp(_ stampId: String, caption: String, photos: [StorageUpload], as client: StampbookClient) async throws(StampbookError) -> StampbookPhotoReport {
        guard let userId = client.uid else { throw .unauthenticated }
        if client.hasUndecidedPhotos { await finishPhotoCleanup(as: client) }
        let batch = photoBatches.withLock { counter -> String in
            counter += 1
            return "b\(counter)"
        }
        let paths = photos.indices.map { Self.photoPath(userId, stampId, batch: batch, index: $0) }
        let attempts = variant == .photoErrorsPerTask ? 1 : Self.photoUploadAttempts
        let storage = client.storage
        // Attempts per photo, by index; 0: every attempt failed (the task handled its error).
        let attemptsByIndex = await withTaskGroup(of: PhotoUploadOutcome.self) { group in
            for (index, photo) in photos.enumerated() {
                let path = paths[index]
                group.addTask {
                    do {
                        return PhotoUploadOutcome(index: index, attempts: try await storage.upload(path, photo, attempts: attempts).attempts)
                    } catch {
                        return PhotoUploadOutcome(index: index, attempts: 0)
                    }
                }
            }
            var byIndex = [Int](repeating: 0, count: photos.count)
            for await outcome in group { byIndex[outcome.index] = outcome.attempts }
            return byIndex
        }
        let storedPaths = paths.indices.filter { attemptsByIndex[$0] > 0 }.map { paths[$0] }
        let report = StampbookPhotoReport(
            stored: storedPaths.count, dropped: photos.count - storedPaths.count,
            attempts: attemptsByIndex.reduce(0) { $0 + ($1 > 0 ? $1 : attempts) })
        let listed = variant == .photoErrorsPerTask ? paths : storedPaths
        let urls = listed.map(CloudStorage.downloadURL(for:))
        do {
            try await collectStamp(stampId, caption: caption, photoURLs: urls, as: client.firestore)
            return report
        } catch {
            let undecided = UndecidedPhotos(stampId: stampId, urls: urls, paths: storedPaths)
            guard let record = await client.firestore.getRetrying(Self.collected(userId, stampId)) else {
                if variant != .photoCleanupNeedsAnswer { client.undecidedPhotos.withLock { $0.append(undecided) } }
                throw error
            }
            if undecided.isListed(by: record) { return report }
            _ = await undecided.delete(storage)
            throw error
        }
    }

    /// The photos of one collect whose outcome the device could not learn.
    struct UndecidedPhotos: Sendable {
        let stampId: String
        /// The URLs the collect's record would list had it landed.
        let urls: [String]
        /// The photos it stored.
        let paths: [String]

        /// Whether `record` is this collect's own (its commit landed).
        func isListed(by record: DocumentSnapshot) -> Bool {
            record.exists && record["photoUrls"] == .array(urls.map(Value.string))
        }

        /// Deletes the stored photos; the ones whose delete went unanswered, still undecided (nil when none).
        func delete(_ storage: StorageClient) async -> UndecidedPhotos? {
            var unanswered: [String] = []
            for path in paths {
                do {
                    try await storage.delete(path)
                } catch .unavailable {
                    unanswered.append(path)
                } catch {}
            }
            return unanswered.isEmpty ? nil : UndecidedPhotos(stampId: stampId, urls: urls, paths: unanswered)
        }
    }

    /// Decides the photos `client`'s earlier collects left undecided: looks at each record and
    /// deletes the photos it does not list. False while a look goes unanswered.
    @discardableResult
    func finishPhotoCleanup(as client: StampbookClient) async -> Bool {
        let undecided = client.undecidedPhotos.withLock { all in
            defer { all = [] }
            return all
        }
        guard let userId = client.uid, !undecided.isEmpty else { return true }
        var left: [UndecidedPhotos] = []
        for collect in undecided {
            guard let record = await client.firestore.getRetrying(Self.collected(userId, collect.stampId)) else {
                left.append(collect)
                continue
            }
            if collect.isListed(by: record) { continue }
            if let unanswered = await collect.delete(client.storage) { left.append(unanswered) }
        }
        client.undecidedPhotos.withLock { $0 = left + $0 }
        return left.isEmpty
    }
}

