import SimulatedFirebase

extension KNBRules {
    /// The largest post image Storage accepts: "3 MB max", read as 3 MiB (`3 * 1024 * 1024`, how
    /// Storage rules are usually written; docs/domain.md).
    public static let imageBytesMaximum = 3 * StorageUpload.mebibyte

    /// KNB's Storage rules (§ Storage Structure, § Storage Rules): post images under
    /// `social_posts/{postId}/{fileName}` are readable by signed-in users, created only by the
    /// user named in the `authorEmail` metadata, at most 3 MB, `image/*`, never updated (immutable),
    /// deleted only by that author; every other path is denied (no match). `checksSize: false` is
    /// the `storage-rules-no-size-check` variant.
    public static func storageRules(checksSize: Bool = true) -> StorageRules {
        var rules = StorageRules()
        rules.match("social_posts/{postId}/{fileName}") { r in
            guard let email = r.auth?.email else { return false }
            switch r.operation {
            case .get, .list: return true
            case .create:
                guard let upload = r.upload else { return false }
                return (!checksSize || upload.sizeBytes <= imageBytesMaximum) && upload.contentType.hasPrefix("image/")
                    && upload.metadata["authorEmail"] == email
            case .update: return false
            case .delete: return r.resource?.metadata["authorEmail"] == email
            }
        }
        return rules
    }
}
