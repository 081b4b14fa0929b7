import SimulatedFirebase
import Synchronization

extension InspiredApp {
    /// The largest avatar file Storage accepts (the seed gives resolutions, not bytes: a 1024 px
    /// JPEG at ~0.7 is a few hundred KB; 5 MiB is docs/domain.md's choice).
    public static let avatarBytesMaximum = 5 * StorageUpload.mebibyte
    /// Download rounds of the avatar view: a 404 re-reads the profile and follows a changed URL.
    public static let avatarReadRounds = 5
    /// Upload attempts per avatar version in the careful design.
    public static let avatarUploadAttempts = 3

    /// Inspired's Storage rules (§ 4.1 naming `images/{feature}/{uid}_{version}.jpg`, § 5.6,
    /// docs/domain.md): the owner is the uid before the file name's first `_`; the owner reads,
    /// writes (`image/*`, at most `avatarBytesMaximum`) and deletes; others read an avatar only
    /// when its owner's `avatarPrivacy` is `public` or they share a community (the Firestore
    /// overlap rule, through `firestore.get()`), and any other feature's files not at all.
    public static var storageRules: StorageRules {
        var rules = StorageRules()
        rules.match("images/{feature}/{fileName}") { r in
            guard let auth = r.auth, let feature = r.segment(1), let fileName = r.segment(2) else { return false }
            let owner = fileName.split(separator: "_", maxSplits: 1).first.map(String.init) ?? ""
            let isOwner = !owner.isEmpty && owner == auth.uid
            switch r.operation {
            case .get, .list:
                if isOwner { return true }
                guard feature == "avatars", let profile = r.lookup(user(owner)) else { return false }
                let privacy = profile["privacySettings"]?.mapValue?["avatarPrivacy"]?.stringValue
                if privacy == InspiredPrivacySettings.AvatarPrivacy.public.rawValue { return true }
                return !communities(r.lookup(memberships(owner))).isDisjoint(with: communities(r.lookup(memberships(auth.uid))))
            case .create, .update:
                guard let upload = r.upload else { return false }
                return isOwner && upload.contentType.hasPrefix("image/") && upload.sizeBytes <= avatarBytesMaximum
            case .delete:
                return isOwner
            }
        }
        return rules
    }

    /// The object path of one avatar version (`thumb`: 150 px, `thumbnailUrl`; `standard`:
    /// 1024 px, `profilePictureUrl`). Careful: a new name per upload (`{uid}_{revision}_{version}`),
    /// so an object is never overwritten; `avatar-delete-then-upload`: the seed's fixed
    /// `{uid}_{version}`.
    func avatarPath(_ userId: String, revision: String, version: String) -> String {
        variant == .avatarDeleteThenUpload ? "images/avatars/\(userId)_\(version).jpg" : "images/avatars/\(userId)_\(revision)_\(version).jpg"
    }

    /// Set-up (Admin SDK): stores a first avatar for `userId` and points the profile at it.
    public func seedAvatar(userId: String, thumbBytes: Int, standardBytes: Int) async throws(InspiredError) {
        let thumb = avatarPath(userId, revision: "r0", version: "thumb"), standard = avatarPath(userId, revision: "r0", version: "standard")
        let thumbObject = backend.storage.put(thumb, StorageUpload(sizeBytes: thumbBytes, contentType: "image/jpeg"))
        let standardObject = backend.storage.put(standard, StorageUpload(sizeBytes: standardBytes, contentType: "image/jpeg"))
        do {
            try await backend.firestore.update(Self.user(userId), [
                "thumbnailUrl": .set(.string(CloudStorage.downloadURL(for: thumbObject))),
                "profilePictureUrl": .set(.string(CloudStorage.downloadURL(for: standardObject))),
            ])
        } catch {
            // No profile to name them (its creation failed): the objects would be orphans.
            _ = backend.storage.remove(thumb)
            _ = backend.storage.remove(standard)
            throw .backend(error)
        }
    }

    private func nextAvatarRevision() -> String {
        avatarRevisions.withLock { counter in
            counter += 1
            return "r\(counter)"
        }
    }

    /// Replaces the caller's avatar (both versions). Careful (docs/domain.md, Inspired "Avatars"):
    /// upload the new version under new names first, then switch the profile's URLs in a
    /// transaction that reads the URLs it replaces, then delete exactly those objects. A failed
    /// upload deletes what it stored and keeps the old avatar; a reader holding the old URL gets a
    /// 404 only after the profile already names the new one. A failed switch whose profile read
    /// goes unanswered leaves its objects undecided on the device, which deletes the ones the
    /// profile does not name once a later read is answered (`finishAvatarCleanup`, first thing in
    /// the next update; `avatar-cleanup-needs-answer` never looks again).
    /// `avatar-delete-then-upload` is the seed's § 4.2 order on the fixed names: delete, upload,
    /// then a fingerprinted URL.
    func updateAvatar(thumbBytes: Int, standardBytes: Int, as client: InspiredClient) async throws(InspiredError) {
        guard let userId = client.uid else { throw .unauthenticated }
        if variant == .avatarDeleteThenUpload {
            try await deleteThenUploadAvatar(userId: userId, thumbBytes: thumbBytes, standardBytes: standardBytes, as: client)
            return
        }
        if client.hasUndecidedAvatarObjects { await finishAvatarCleanup(as: client) }
        let stored = try await uploadAvatarVersions(userId: userId, thumbBytes: thumbBytes, standardBytes: standardBytes, as: client)
        let thumbURL = CloudStorage.downloadURL(for: stored[0]), standardURL = CloudStorage.downloadURL(for: stored[1])
        let profilePath = Self.user(userId)
        let (failure, readURLs) = await switchAvatar(profilePath, userId: userId, thumbURL: thumbURL, standardURL: standardURL, as: client)
        // Delete every candidate (ours, and whatever the switch read) the profile no longer names:
        // nothing ever switches back to an old URL, so an unnamed candidate is garbage either way.
        var named: Set<String> = [thumbURL, standardURL]
        let candidates = readURLs + stored.map(CloudStorage.downloadURL(for:))
        if failure != nil {
            // Did the switch land after all? Without an answer, delete nothing (no dangling URL)
            // and decide later, when a read is answered.
            guard let now = await client.firestore.getRetrying(profilePath) else {
                if variant != .avatarCleanupNeedsAnswer { client.undecidedAvatarURLs.withLock { $0 += candidates } }
                throw InspiredError.wrap(failure!)
            }
            named = Self.avatarURLs(now)
        }
        _ = await deleteUnnamed(candidates, named: named, as: client)
        if let failure, !named.contains(thumbURL) { throw InspiredError.wrap(failure) }
    }

    /// Uploads both versions under a new revision's names; returns the stored objects (thumb
    /// first). A failed upload deletes what was stored.
    private func uploadAvatarVersions(
        userId: String, thumbBytes: Int, standardBytes: Int, as client: InspiredClient
    ) async throws(InspiredError) -> [StorageObject] {
        let revision = nextAvatarRevision()
        let versions = [("thumb", thumbBytes), ("standard", standardBytes)]
        var stored: [StorageObject] = []
        for (version, bytes) in versions {
            let path = avatarPath(userId, revision: revision, version: version)
            do {
                stored.append(try await client.storage.upload(path, StorageUpload(sizeBytes: bytes, contentType: "image/jpeg"), attempts: Self.avatarUploadAttempts).object)
            } catch {
                for object in stored { try? await client.storage.delete(object.path) }
                throw .backend(error)
            }
        }
        return stored
    }

    /// Switches the profile's URLs to the new ones in a transaction, a compare-and-set against
    /// the URLs its first attempt read. Returns why it failed (nil: switched) and every avatar URL
    /// any attempt read (what a landed commit of ours may have replaced).
    private func switchAvatar(
        _ profilePath: DocumentPath, userId: String, thumbURL: String, standardURL: String, as client: InspiredClient
    ) async -> (failure: (any Error)?, read: [String]) {
        let read = Mutex<(all: [String], first: [String]?)>(([], nil))
        var failure: (any Error)?
        do {
            try await client.firestore.runTransaction { transaction in
                let profile = try await transaction.get(profilePath)
                guard profile.exists else { throw InspiredError.profileNotFound(userId: userId) }
                let current = [profile["thumbnailUrl"]?.stringValue, profile["profilePictureUrl"]?.stringValue].compactMap { $0 }
                let first = read.withLock { read -> [String]? in
                    read.all += current
                    if read.first == nil { read.first = current }
                    return read.first
                }
                // A re-run after a commit whose answer was lost finds its own URLs: done.
                if current.first == thumbURL { return }
                // Another device switched since the first read (or replaced our landed switch):
                // it is the newer avatar; never switch back over it.
                if first != current { throw InspiredError.avatarChangedElsewhere(userId: userId) }
                transaction.update(profilePath, [
                    "thumbnailUrl": .set(.string(thumbURL)), "profilePictureUrl": .set(.string(standardURL)), "updatedAt": .serverTimestamp,
                ])
            }
        } catch { failure = error }
        return (failure, read.withLock { $0.all })
    }

    /// The avatar URLs `profile` names.
    static func avatarURLs(_ profile: DocumentSnapshot) -> Set<String> {
        Set([profile["thumbnailUrl"]?.stringValue, profile["profilePictureUrl"]?.stringValue].compactMap { $0 })
    }

    /// Deletes each object of `urls` that `named` does not hold (nothing ever switches back to an
    /// old URL, so an unnamed one is garbage); returns the URLs whose delete went unanswered.
    private func deleteUnnamed(_ urls: [String], named: Set<String>, as client: InspiredClient) async -> [String] {
        var deleted: Set<String> = [], unanswered: [String] = []
        for url in urls where !named.contains(url) {
            guard let path = CloudStorage.path(fromURL: url), deleted.insert(path).inserted else { continue }
            do {
                try await client.storage.delete(path)
            } catch .unavailable {
                unanswered.append(url)
            } catch {}
        }
        return unanswered
    }

    /// Decides the avatar objects `client`'s earlier updates left undecided: reads the profile and
    /// deletes those it does not name. False (nothing deleted, all still undecided) while the read
    /// goes unanswered.
    @discardableResult
    func finishAvatarCleanup(as client: InspiredClient) async -> Bool {
        let undecided = client.undecidedAvatarURLs.withLock { urls in
            defer { urls = [] }
            return urls
        }
        guard !undecided.isEmpty else { return true }
        guard let userId = client.uid, let profile = await client.firestore.getRetrying(Self.user(userId)) else {
            client.undecidedAvatarURLs.withLock { $0 = undecided + $0 }
            return false
        }
        let unanswered = await deleteUnnamed(undecided, named: Self.avatarURLs(profile), as: client)
        client.undecidedAvatarURLs.withLock { $0 += unanswered }
        return unanswered.isEmpty
    }

    /// The seed's literal "delete-then-upload" on the fixed names, one attempt per upload.
    private func deleteThenUploadAvatar(userId: String, thumbBytes: Int, standardBytes: Int, as client: InspiredClient) async throws(InspiredError) {
        let versions = [("thumb", thumbBytes), ("standard", standardBytes)]
        for (version, _) in versions { try? await client.storage.delete(avatarPath(userId, revision: "", version: version)) }
        var urls: [String] = []
        for (version, bytes) in versions {
            do {
                let object = try await client.storage.upload(avatarPath(userId, revision: "", version: version), StorageUpload(sizeBytes: bytes, contentType: "image/jpeg"))
                urls.append(CloudStorage.downloadURL(for: object))
            } catch { throw .backend(error) }
        }
        // URL fingerprinting (§ 4.2 "?v=1708250000") so caches refresh.
        let stamp = backend.env.clock.now.unixNanoseconds
        do {
            try await client.firestore.updateData(Self.user(userId), [
                "thumbnailUrl": .set(.string(urls[0] + "&v=\(stamp)")),
                "profilePictureUrl": .set(.string(urls[1] + "&v=\(stamp)")),
                "updatedAt": .serverTimestamp,
            ])
        } catch { throw .backend(error) }
    }

    /// The avatar view of `userId` for the caller (§ 5.3.1): read the profile (a refusal throws
    /// `profileNotVisible`), show the placeholder without fetching when `avatarPrivacy` is
    /// `groups-only`, else download the thumbnail; 403 → placeholder; 404 → re-read the profile
    /// and follow a changed URL (an update replaced the object), at most `avatarReadRounds` times.
    func avatar(of userId: String, as client: InspiredClient) async throws(InspiredError) -> InspiredAvatar {
        var previous: String?
        for _ in 0..<Self.avatarReadRounds {
            let profile = try await self.profile(of: userId, as: client.firestore)
            let privacy = profile["privacySettings"]?.mapValue?["avatarPrivacy"]?.stringValue
            if privacy != InspiredPrivacySettings.AvatarPrivacy.public.rawValue { return .placeholder }
            guard let url = profile["thumbnailUrl"]?.stringValue, let path = CloudStorage.path(fromURL: url) else {
                return .broken("thumbnailUrl \(profile["thumbnailUrl"]?.stringValue ?? "nil") is not a Storage URL")
            }
            if let previous, previous == path { return .broken("404 for \(path), and the profile still names it") }
            do {
                let object = try await client.storage.download(path)
                return .image(path: path, generation: object.generation)
            } catch .permissionDenied {
                return .placeholder
            } catch .objectNotFound {
                previous = path
            } catch { throw .backend(error) }
        }
        return .broken("the avatar URL changed \(Self.avatarReadRounds) times while reading")
    }
}
