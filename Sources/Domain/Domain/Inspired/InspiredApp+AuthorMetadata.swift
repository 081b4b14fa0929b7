import SimulatedFirebase

/// Posts denormalise their author ("ID, username, avatar, privacy … for fast rendering", § 2.3):
/// what a post may carry, and the trigger that keeps it in step with the live profile
/// (docs/domain.md, Inspired author metadata).
extension InspiredApp {
    /// The `author` map a post gets from its author's profile. The thumbnail URL is PII "subject
    /// to privacy rules" (§ 2.1), and posts are readable by every signed-in user, so the careful
    /// design copies it only while the avatar is public; a groups-only avatar shows the
    /// "Community-Only" placeholder (§ 5.3.1.3) without it.
    func authorMetadata(_ userId: String, _ profile: Fields) -> Fields {
        let avatarPrivacy = profile["privacySettings"]?.mapValue?["avatarPrivacy"] ?? .null
        let shareThumbnail = variant == .authorMetadataNeverUpdated || avatarPrivacy == .string(InspiredPrivacySettings.AvatarPrivacy.public.rawValue)
        return [
            "id": .string(userId), "username": profile["username"] ?? .null,
            "thumbnailUrl": shareThumbnail ? profile["thumbnailUrl"] ?? .null : .null,
            "avatarPrivacy": avatarPrivacy,
        ]
    }

    /// `propagateAuthorMetadata` (users onUpdate): rewrites the author map of every post by the
    /// user. Each post is rewritten in a server transaction that reads the live profile, so a run
    /// that started before a later change cannot overwrite that change's rewrite (the commit's
    /// version check sends it round again), and duplicate or reordered deliveries converge on the
    /// live settings.
    func propagateAuthorMetadata(_ event: TriggerEvent) async throws {
        let userId = event.path.id
        let before = event.before.fields ?? [:], after = event.after.fields ?? [:]
        if variant == .authorMetadataFromEvent {
            // The event's payload, written blind: an older event delivered last wins.
            let author = authorMetadata(userId, after)
            for post in await backend.firestore.fetch("posts", where: { $0["author"]?.mapValue?["id"]?.stringValue == userId }) {
                try await backend.firestore.update(post.path, ["author": .set(.map(author))])
            }
            return
        }
        let watched = ["privacySettings", "thumbnailUrl", "username"]
        guard watched.contains(where: { before[$0] != after[$0] }) || event.isDuplicate else { return }
        if variant != .avatarURLOutlivesPrivacy { revokeAvatarURLs(before: before, after: after) }
        for post in await backend.firestore.fetch("posts", where: { $0["author"]?.mapValue?["id"]?.stringValue == userId }) {
            try await backend.firestore.runTransaction { transaction in
                let profile = try await transaction.get(Self.user(userId))
                let current = try await transaction.get(post.path)
                guard current.exists, let fields = profile.fields else { return }
                let author = Value.map(self.authorMetadata(userId, fields))
                if current["author"] != author { transaction.update(post.path, ["author": .set(author)]) }
            }
        }
    }

    /// When an avatar stops being public, revokes the download tokens of the objects the profile
    /// named before and after the change (docs/domain.md, Inspired "Avatars"): a download URL
    /// bypasses the Storage rules, so a URL copied while the avatar was public would otherwise keep
    /// showing it to anyone. Decided from the event alone (no read): a reordered event may revoke
    /// a public avatar's tokens, which costs nothing, because the app reads avatars through the SDK
    /// (rules-judged, by path), never by URL.
    func revokeAvatarURLs(before: Fields, after: Fields) {
        let isPublic = { (profile: Fields) in
            profile["privacySettings"]?.mapValue?["avatarPrivacy"] == .string(InspiredPrivacySettings.AvatarPrivacy.public.rawValue)
        }
        guard isPublic(before), !isPublic(after) else { return }
        let urls = ["thumbnailUrl", "profilePictureUrl"].flatMap { [before[$0]?.stringValue, after[$0]?.stringValue] }
        for path in Set(urls.compactMap { $0.flatMap(CloudStorage.path(fromURL:)) }).sorted() {
            backend.storage.revokeDownloadTokens(path)
        }
    }
}
