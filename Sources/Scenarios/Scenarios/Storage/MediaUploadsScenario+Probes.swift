import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

extension MediaUploadsScenario {
    /// What one probe of the Storage rules got.
    enum ProbeOutcome: Equatable, CustomStringConvertible {
        case allowed, denied
        /// Neither (every attempt failed in transit, or another error): not judged.
        case inconclusive(String)

        var description: String {
            switch self {
            case .allowed: return "allowed"
            case .denied: return "denied"
            case .inconclusive(let why): return "inconclusive (\(why))"
            }
        }
    }

    /// Attempts per probe while the upload fails in transit (UNAVAILABLE says nothing about the rules).
    static let probeAttempts = 10

    /// Runs one probe and judges it against `expectAllowed` — the scenario's own table, written
    /// from the design documents (docs/scenarios.md), not from the rules it judges. Allowed means
    /// the request got past the rules (success, or a 404 for an object that is not there).
    @discardableResult
    static func probe(_ prober: String, _ name: String, expectAllowed: Bool, context: ScenarioContext,
                      _ body: () async throws(BackendError) -> Void) async -> ProbeOutcome {
        context.note(prober, "probe \(name)")
        var outcome = ProbeOutcome.inconclusive("not run")
        for _ in 0..<probeAttempts {
            do {
                try await body()
                outcome = .allowed
            } catch .unavailable(let why) {
                outcome = .inconclusive(why)
                continue
            } catch .permissionDenied {
                outcome = .denied
            } catch .objectNotFound {
                outcome = .allowed
            } catch {
                outcome = .inconclusive(error.description)
            }
            break
        }
        if case .inconclusive = outcome {
            context.note(prober, "probe \(name) inconclusive: \(outcome)")
            return outcome
        }
        let expected: ProbeOutcome = expectAllowed ? .allowed : .denied
        context.always(Check.rulesAsDocumented, outcome == expected, "\(prober): \(name) was \(outcome), the design says \(expected)")
        return outcome
    }

    /// KNB (§ Storage Structure, § Storage Rules): post images 3 MB max, image/*, the
    /// `authorEmail` metadata names the uploader, no updates, deletes by that author; other paths denied.
    static func probeKNB(_ world: World, context: ScenarioContext) async {
        let me = world.knbProber.storage, victim = world.knbVictim.storage, anonymous = world.knbSignedOut
        let who = "probe@knb.org", folder = "social_posts/probe-post"
        let mine = ["authorEmail": who]
        func jpeg(_ bytes: Int, _ metadata: [String: String] = mine) -> StorageUpload { StorageUpload(sizeBytes: bytes, contentType: "image/jpeg", metadata: metadata) }
        guard await probe(who, "upload own 2 MB image", expectAllowed: true, context: context, { () throws(BackendError) in
            try await me.upload("\(folder)/0.jpg", jpeg(2 * 1_048_576))
        }) == .allowed else { return }
        await probe(who, "overwrite own image (update)", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/0.jpg", jpeg(1_000_000))
        }
        await probe(who, "upload 4 MB image", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/1.jpg", jpeg(4 * 1_048_576))
        }
        let boundary = await probe(who, "upload image of exactly 3 MB (3 * 1024 * 1024 bytes)", expectAllowed: true, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/2.jpg", jpeg(3 * 1_048_576))
        }
        await probe(who, "upload 3 MB + 1 byte image", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/3.jpg", jpeg(3 * 1_048_576 + 1))
        }
        await probe(who, "upload a PDF", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/4.pdf", StorageUpload(sizeBytes: 100_000, contentType: "application/pdf", metadata: mine))
        }
        await probe(who, "upload an image whose authorEmail is another user", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/5.jpg", jpeg(500_000, ["authorEmail": "victim@knb.org"]))
        }
        await probe(who, "upload an image without authorEmail", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("\(folder)/6.jpg", jpeg(500_000, [:]))
        }
        await probe(who, "upload outside social_posts/", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("uploads/probe.jpg", jpeg(500_000))
        }
        await probe(who, "signed-out upload", expectAllowed: false, context: context) { () throws(BackendError) in
            try await anonymous.upload("\(folder)/7.jpg", jpeg(500_000))
        }
        await probe(who, "another user reads the image", expectAllowed: true, context: context) { () throws(BackendError) in
            _ = try await victim.download("\(folder)/0.jpg")
        }
        await probe(who, "signed-out read", expectAllowed: false, context: context) { () throws(BackendError) in
            _ = try await anonymous.download("\(folder)/0.jpg")
        }
        await probe(who, "another user deletes the image", expectAllowed: false, context: context) { () throws(BackendError) in
            try await victim.delete("\(folder)/0.jpg")
        }
        await probe(who, "author deletes own image", expectAllowed: true, context: context) { () throws(BackendError) in
            try await me.delete("\(folder)/0.jpg")
        }
        if boundary == .allowed {
            await probe(who, "author deletes own 3 MB image", expectAllowed: true, context: context) { () throws(BackendError) in
                try await me.delete("\(folder)/2.jpg")
            }
        }
    }

    /// Inspired (§ 4.1 naming, § 5.3.1, § 5.6 and docs/domain.md): the owner (the uid before the
    /// file name's `_`) writes images only; a groups-only avatar is refused to a reader sharing no community.
    static func probeInspired(_ world: World, context: ScenarioContext) async {
        let me = world.inspiredProber.storage, who = "iprobe"
        func jpeg(_ bytes: Int) -> StorageUpload { StorageUpload(sizeBytes: bytes, contentType: "image/jpeg") }
        await hideCopiedAvatar(world, context: context)
        guard await probe(who, "upload own avatar file", expectAllowed: true, context: context, { () throws(BackendError) in
            try await me.upload("images/avatars/iprobe_p_thumb.jpg", jpeg(30_000))
        }) == .allowed else { return }
        await probe(who, "upload an avatar file named for another user", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("images/avatars/\(world.privateOwner)_p_thumb.jpg", jpeg(30_000))
        }
        await probe(who, "upload a non-image avatar", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("images/avatars/iprobe_p.pdf", StorageUpload(sizeBytes: 30_000, contentType: "application/pdf"))
        }
        await probe(who, "upload a 6 MB avatar", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("images/avatars/iprobe_q_standard.jpg", jpeg(6 * 1_048_576))
        }
        // The hidden user's avatar path, from the checker's (admin) view of their profile, once
        // their avatar is groups-only there.
        let hiddenProfile = world.inspiredBackend.firestore.liveFields(DocumentPath("users", world.privateOwner))
        let hiddenURL = hiddenProfile?["thumbnailUrl"]?.stringValue
        let hiddenIsPrivate = hiddenProfile?["privacySettings"]?.mapValue?["avatarPrivacy"] == .string("groups-only")
        if hiddenIsPrivate, let hiddenPath = hiddenURL.flatMap(objectPath(fromURL:)) {
            await probe(who, "read a groups-only avatar without a shared community", expectAllowed: false, context: context) { () throws(BackendError) in
                _ = try await me.download(hiddenPath)
            }
            await probe(who, "delete another user's avatar", expectAllowed: false, context: context) { () throws(BackendError) in
                try await me.delete(hiddenPath)
            }
        }
        await probe(who, "delete own avatar file", expectAllowed: true, context: context) { () throws(BackendError) in
            try await me.delete("images/avatars/iprobe_p_thumb.jpg")
        }
    }

    /// Stampbook (docs/domain.md: photos under the collector's uid, images only, never overwritten).
    static func probeStampbook(_ world: World, context: ScenarioContext) async {
        let me = world.stampbookProber.storage, who = "sprobe"
        func jpeg(_ bytes: Int) -> StorageUpload { StorageUpload(sizeBytes: bytes, contentType: "image/jpeg") }
        guard await probe(who, "upload own stamp photo", expectAllowed: true, context: context, { () throws(BackendError) in
            try await me.upload("stamp_photos/sprobe/stamp0/probe_0.jpg", jpeg(800_000))
        }) == .allowed else { return }
        await probe(who, "overwrite own stamp photo (update)", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("stamp_photos/sprobe/stamp0/probe_0.jpg", jpeg(700_000))
        }
        await probe(who, "upload into another user's folder", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("stamp_photos/collector0/stamp0/probe_0.jpg", jpeg(800_000))
        }
        await probe(who, "upload a non-image photo", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("stamp_photos/sprobe/stamp0/probe_1.mov", StorageUpload(sizeBytes: 800_000, contentType: "video/quicktime"))
        }
        await probe(who, "upload an 11 MB photo", expectAllowed: false, context: context) { () throws(BackendError) in
            try await me.upload("stamp_photos/sprobe/stamp0/probe_2.jpg", jpeg(11 * 1_048_576))
        }
        await probe(who, "delete own stamp photo", expectAllowed: true, context: context) { () throws(BackendError) in
            try await me.delete("stamp_photos/sprobe/stamp0/probe_0.jpg")
        }
    }

    /// The hidden user makes their avatar groups-only again (retried like a user would); the
    /// prober then opens the URLs it copied while it was public, as an image view does (a GET of
    /// the URL, no rules): what it sees before the app revokes them is not judged (the revocation
    /// follows the change), only what it sees once idle (`copied-avatar-url-revoked`).
    static func hideCopiedAvatar(_ world: World, context: ScenarioContext) async {
        guard !world.copiedURLs.isEmpty else { return }
        context.note("hidden", "privacy groups-only (a stranger holds the avatar's URLs)")
        do {
            try await ScenarioSupport.retrying(attempts: 8) { try await world.hiddenOwner.updatePrivacy(.defaults) }
        } catch {
            context.note("hidden", "privacy change failed: \(error)")
            return
        }
        for url in world.copiedURLs {
            let seen = (try? await world.inspiredProber.storage.fetch(url: url)) != nil
            context.note("iprobe", "opens a copied avatar URL right after: \(seen ? "image" : "refused")")
        }
    }

    /// Once idle, a stranger opening an avatar URL copied while it was public gets no image when
    /// the avatar is groups-only now (MODEL_RULES §28: the token outlives the rules until revoked).
    static func checkCopiedURLs(_ world: World, context: ScenarioContext) async {
        let profile = world.inspiredBackend.firestore.liveFields(DocumentPath("users", world.privateOwner))
        guard !world.copiedURLs.isEmpty, profile?["privacySettings"]?.mapValue?["avatarPrivacy"] == .string("groups-only") else { return }
        for url in world.copiedURLs {
            var served: StorageObject?
            for _ in 0..<8 {
                do {
                    served = try await world.inspiredProber.storage.fetch(url: url)
                    break
                } catch .unavailable, .deadlineExceeded {
                    continue
                } catch {
                    break
                }
            }
            context.eventually(
                Check.copiedAvatarURLRevoked, served == nil,
                "iprobe opened \(url), copied while hidden's avatar was public, and saw the image of a groups-only avatar once idle")
        }
    }
}
