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
    /// look at the record shows its own commit landed after all. `photo-errors-per-task`: one
    /// attempt per photo, each task swallows its error, and `photoUrls` lists every planned photo.
    func collectStamp(_ stampId: String, caption: String, photos: [StorageUpload], as client: StampbookClient) async throws(StampbookError) -> StampbookPhotoReport {
        guard let userId = client.uid else { throw .unauthenticated }
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
            let record = await client.firestore.getRetrying(Self.collected(userId, stampId))
            if let record, record.exists, record["photoUrls"] == .array(urls.map(Value.string)) { return report }
            if record != nil { for path in storedPaths { try? await storage.delete(path) } }
            throw error
        }
    }
}

