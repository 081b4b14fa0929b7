import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// Cloud Storage in three apps at once, each on its own simulated project (docs/scenarios.md,
/// "media-uploads"): KNB users post with up to four images, Inspired users replace their avatar
/// from two devices while others view it, Stampbook users collect stamps with photos uploaded in
/// parallel (double taps included); uploads fail mid-transfer at `uploadFailurePercent`, and a
/// prober per app tries the requests the Storage rules must refuse. No document may name a
/// missing object, no object may be left unnamed, no reader of a public avatar may see it broken.
public struct MediaUploadsScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .mediaUploads }
    /// The name `rehearse` takes.
    public let name = "media-uploads"
    /// One line for `rehearse list`.
    public let summary = "Cloud Storage: KNB post images, Inspired avatar updates vs readers, Stampbook parallel photo uploads"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.posters, Parameter.postsPerPoster, Parameter.avatarOwners, Parameter.avatarUpdates, Parameter.readers,
        Parameter.readsPerReader, Parameter.collectors, Parameter.collectsPerCollector, Parameter.photosPerCollect,
        Parameter.doubleTapPercent, Parameter.uploadFailurePercent, Parameter.rulesProbes, Parameter.durationSeconds,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["post-with-images", "avatar-update", "avatar-read", "collect-with-photos"]
    /// The variants it should catch (one per app).
    public let variants = [
        KNBVariant.storageRulesNoSizeCheck.rawValue, InspiredVariant.avatarDeleteThenUpload.rawValue, StampbookVariant.photoErrorsPerTask.rawValue,
        KNBVariant.postCleanupWithoutAnswer.rawValue, InspiredVariant.avatarCleanupNeedsAnswer.rawValue, StampbookVariant.photoCleanupNeedsAnswer.rawValue,
        InspiredVariant.avatarURLOutlivesPrivacy.rawValue,
    ]
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.rulesAsDocumented, Check.avatarNeverBroken, Check.noDanglingURL, Check.noOrphanedObject,
        Check.uploadRetried, Check.uploadDropped, Check.doubleCollectCleanedUp, Check.avatarReadDuringUpdate, Check.copiedAvatarURLRevoked,
    ]
    /// The parameter counting this scenario's users (Stampbook collectors; the other apps scale with it in `rehearse bench`).
    public var population: ScenarioParameter? { Parameter.collectors }

    /// The backend faults of every app here: the run's defaults with the upload failure rate.
    static func faults(_ parameters: ScenarioParameters) -> BackendFaults {
        var faults = BackendFaults.default
        faults.storageUploadFailureProbability = Double(parameters[Parameter.uploadFailurePercent]) / 100
        return faults
    }

    /// Runs one seed: the three apps' set-up, their users and probers at once, then the end checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let variant = context.variant ?? ""
        let knb = KNBApp(backend: context.backend(Self.faults(p)), variant: KNBVariant(rawValue: variant) ?? .careful)
        let inspired = InspiredApp(backend: context.backend(Self.faults(p)), variant: InspiredVariant(rawValue: variant) ?? .careful)
        let stampbook = StampbookApp(backend: context.backend(Self.faults(p)), variant: StampbookVariant(rawValue: variant) ?? .careful)
        let world = try await setUp(context, knb: knb, inspired: inspired, stampbook: stampbook)
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(500), check: {}) {
            await withTaskGroup(of: Void.self) { group in
                for (index, poster) in world.posters.enumerated() {
                    group.addTask { await Simulation.named("knb-poster-\(index)") { await Self.posterLoop(poster, index: index, origin: origin, context: context) } }
                }
                for (index, owner) in world.owners.enumerated() {
                    for (device, client) in owner.devices.enumerated() {
                        group.addTask {
                            await Simulation.named("avatar-owner-\(index)-\(device)") {
                                await Self.ownerLoop(owner.uid, client, device: device, updating: world.updating, origin: origin, context: context)
                            }
                        }
                    }
                }
                for (index, reader) in world.readers.enumerated() {
                    group.addTask {
                        await Simulation.named("avatar-reader-\(index)") {
                            await Self.readerLoop(reader, index: index, owners: world.publicOwners, updating: world.updating, origin: origin, context: context)
                        }
                    }
                }
                for (index, collector) in world.collectors.enumerated() {
                    group.addTask {
                        await Simulation.named("collector-\(index)") { await Self.collectorLoop(collector, index: index, origin: origin, context: context) }
                    }
                }
                if p[Parameter.rulesProbes] > 0 {
                    group.addTask { await Simulation.named("knb-prober") { await Self.probeKNB(world, context: context) } }
                    group.addTask { await Simulation.named("inspired-prober") { await Self.probeInspired(world, context: context) } }
                    group.addTask { await Simulation.named("stampbook-prober") { await Self.probeStampbook(world, context: context) } }
                }
            }
            for backend in [knb.backend, inspired.backend, stampbook.backend] { await backend.waitUntilIdle() }
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        await Self.reopenApps(world, context: context)
        for backend in [knb.backend, inspired.backend, stampbook.backend] { await backend.waitUntilIdle() }
        Self.checkReferences("knb", knb.backend, Self.knbReferences(knb.backend), context)
        Self.checkReferences("inspired", inspired.backend, Self.inspiredReferences(inspired.backend), context)
        Self.checkReferences("stampbook", stampbook.backend, Self.stampbookReferences(stampbook.backend, users: world.collectors.map(\.uid!)), context)
        await Self.checkCopiedURLs(world, context: context)
        try context.throwIfStopped()
    }

    // MARK: Set-up

    /// Everyone the run's tasks act as.
    struct World: Sendable {
        let posters: [KNBClient]
        let knbProber: KNBClient
        let knbVictim: KNBClient
        let knbSignedOut: StorageClient
        let owners: [(uid: String, devices: [InspiredClient])]
        let readers: [InspiredClient]
        /// The owners whose set-up landed: the ones readers judge.
        let publicOwners: [String]
        let inspiredProber: InspiredClient
        /// The Inspired project (the prober looks up a path through the admin view).
        let inspiredBackend: Backend
        /// A user sharing no community with the prober, public at set-up, groups-only from the
        /// prober's first step on.
        let privateOwner: String
        /// Their device.
        let hiddenOwner: InspiredClient
        /// Their avatar's download URLs as the prober copied them while the avatar was public.
        let copiedURLs: [String]
        let collectors: [StampbookClient]
        let stampbookProber: StampbookClient
        /// Avatar updates in flight, per owner (for `avatar-read-during-update`).
        let updating: UpdateCounter
    }

    /// Counts in-flight avatar updates per owner.
    final class UpdateCounter: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func begin(_ uid: String) { counts.withLock { $0[uid, default: 0] += 1 } }
        func end(_ uid: String) { counts.withLock { $0[uid, default: 1] -= 1 } }
        func isUpdating(_ uid: String) -> Bool { counts.withLock { ($0[uid] ?? 0) > 0 } }
    }

    func setUp(_ context: ScenarioContext, knb: KNBApp, inspired: InspiredApp, stampbook: StampbookApp) async throws -> World {
        let p = context.parameters
        var posters: [KNBClient] = []
        for index in 0..<p[Parameter.posters] {
            posters.append(await KNBScenarioSupport.signUp(knb, email: "poster\(index)@knb.org", name: "Poster \(index)"))
        }
        let knbProber = await KNBScenarioSupport.signUp(knb, email: "probe@knb.org", name: "Probe")
        let knbVictim = await KNBScenarioSupport.signUp(knb, email: "victim@knb.org", name: "Victim")
        let signedOut = knb.backend.storageClient(for: knb.backend.client(auth: nil, label: "knb/signed-out"), label: "knb/signed-out")

        var owners: [(uid: String, devices: [InspiredClient])] = []
        let everyone = InspiredPrivacySettings(isProfilePublic: true, avatarPrivacy: .public, showJoinedGroups: .public)
        for index in 0..<p[Parameter.avatarOwners] {
            let uid = "owner\(index)"
            let phone = inspired.client(uid: uid, device: "phone"), tablet = inspired.client(uid: uid, device: "tablet")
            // Set-up, not under test: more attempts than a user's three (a sweep of new seeds lost all
            // three of updatePrivacy's on seed 3524, leaving the owner private).
            _ = try? await ScenarioSupport.retrying(attempts: 8) { try await phone.createProfile(displayName: "Owner \(index)", joinedCommunities: ["area\(index % 2)"]) }
            _ = try? await ScenarioSupport.retrying(attempts: 8) { try await phone.updatePrivacy(everyone) }
            try? await inspired.seedAvatar(userId: uid, thumbBytes: 20_000, standardBytes: 300_000)
            owners.append((uid, [phone, tablet]))
        }
        let privateOwner = "hidden"
        let hidden = inspired.client(uid: privateOwner)
        _ = try? await ScenarioSupport.retrying(attempts: 8) { try await hidden.createProfile(displayName: "Hidden", joinedCommunities: ["studio-x"]) }
        try? await inspired.seedAvatar(userId: privateOwner, thumbBytes: 20_000, standardBytes: 300_000)
        // The hidden user starts public, long enough for the prober (a stranger) to copy the avatar's
        // download URLs from the profile; the prober's first step makes them groups-only again.
        let inspiredProber = inspired.client(uid: "iprobe")
        var copiedURLs: [String] = []
        if (try? await ScenarioSupport.retrying(attempts: 8, { try await hidden.updatePrivacy(everyone) })) != nil,
           let profile = try? await ScenarioSupport.retrying(attempts: 8, { try await inspiredProber.profile(of: privateOwner) }) {
            copiedURLs = ["thumbnailUrl", "profilePictureUrl"].compactMap { profile[$0]?.stringValue }
        }
        let readers = (0..<p[Parameter.readers]).map { inspired.client(uid: "reader\($0)") }
        // Readers judge only owners whose set-up landed (profile public, avatar seeded), read through
        // the admin view without a network step; an owner whose set-up lost every retry is noted.
        let publicOwners = owners.map(\.uid).filter { uid in
            guard let fields = inspired.backend.firestore.liveFields(DocumentPath("users", uid)), fields["thumbnailUrl"] != nil,
                  let privacy = fields["privacySettings"]?.mapValue else { return false }
            return privacy["isProfilePublic"] == .bool(true) && privacy["avatarPrivacy"] == .string("public")
        }
        for (uid, _) in owners where !publicOwners.contains(uid) { context.note(uid, "set-up did not land (profile, privacy or avatar): readers skip this owner") }

        var collectors: [StampbookClient] = []
        for index in 0..<p[Parameter.collectsPerCollector] { try? await stampbook.addStamp(stampId: "stamp\(index)", name: "Stamp \(index)") }
        for index in 0..<p[Parameter.collectors] { collectors.append(stampbook.client(uid: "collector\(index)")) }
        return World(
            posters: posters, knbProber: knbProber, knbVictim: knbVictim, knbSignedOut: signedOut, owners: owners, readers: readers,
            publicOwners: publicOwners, inspiredProber: inspiredProber, inspiredBackend: inspired.backend, privateOwner: privateOwner,
            hiddenOwner: hidden, copiedURLs: copiedURLs, collectors: collectors,
            stampbookProber: stampbook.client(uid: "sprobe"), updating: UpdateCounter())
    }

    // MARK: Users

    /// How often a device whose clean-up is left undecided opens the app again (5 minutes).
    static let reopenEvery: UInt64 = 5 * 60 * 1_000_000_000
    /// How many times it does at most (a day's worth).
    static let reopenTimes = 288

    /// After the workload, each device a post, an avatar update or a collect left with undecided
    /// objects (its look at the post, profile or record went unanswered) is opened again every 5
    /// minutes, for a day at most, until the app has decided them. Devices with nothing undecided
    /// do nothing.
    static func reopenApps(_ world: World, context: ScenarioContext) async {
        var finishes: [(user: String, finish: @Sendable () async -> Bool)] = []
        for poster in world.posters where poster.hasUndecidedPosts {
            finishes.append((poster.email, { await poster.finishPostCleanup() }))
        }
        for (uid, devices) in world.owners {
            for device in devices where device.hasUndecidedAvatarObjects { finishes.append((uid, { await device.finishAvatarCleanup() })) }
        }
        for collector in world.collectors where collector.hasUndecidedPhotos {
            finishes.append((collector.uid ?? "collector", { await collector.finishPhotoCleanup() }))
        }
        guard !finishes.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            for (index, (user, finish)) in finishes.enumerated() {
                group.addTask {
                    await Simulation.named("reopen-\(index)") {
                        for _ in 0..<reopenTimes {
                            context.note(user, "app opened: finishing undecided clean-up")
                            if await finish() { return }
                            await ScenarioSupport.sleep(until: Simulation.nowNanoseconds + reopenEvery)
                        }
                        context.note(user, "clean-up still undecided after a day")
                    }
                }
            }
        }
    }

    static func posterLoop(_ poster: KNBClient, index: Int, origin: UInt64, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("media/poster-\(index)")
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.postsPerPoster], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            // After the app's JPEG compression: 100 KB to just under 3 MiB.
            let images = (0..<(1 + random.below(4))).map { _ in KNBPostImage(sizeBytes: 100_000 + random.below(3 * 1_048_576 - 100_000)) }
            context.note(poster.email, "post-with-images \(images.count)")
            if let post = try? await poster.createPost("Photos \(index)", images: images) {
                context.sometimes(Check.uploadRetried, post.uploadAttempts - KNBClient.imageUploadAttempts * post.droppedImages > post.storedImages)
                context.sometimes(Check.uploadDropped, post.droppedImages > 0 && post.storedImages > 0)
                context.note(poster.email, "posted \(post.path.id) with \(post.storedImages) image(s), \(post.droppedImages) dropped")
            }
            context.recordLatency("post-with-images", user: poster.email, intendedStartNanoseconds: arrival)
        }
    }

    static func ownerLoop(_ uid: String, _ client: InspiredClient, device: Int, updating: UpdateCounter, origin: UInt64, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("media/owner-\(uid)-\(device)")
        // The owner's updates split between the two devices (the first takes the odd one).
        let count = (p[Parameter.avatarUpdates] + (device == 0 ? 1 : 0)) / 2
        for arrival in ScenarioSupport.arrivals(count: count, durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            context.note(uid, "avatar-update from device \(device)")
            updating.begin(uid)
            do {
                try await client.updateAvatar(thumbBytes: 15_000 + random.below(30_000), standardBytes: 150_000 + random.below(600_000))
                context.note(uid, "avatar updated from device \(device)")
            } catch {
                context.note(uid, "avatar update from device \(device) failed: \(error)")
            }
            updating.end(uid)
            context.recordLatency("avatar-update", user: uid, intendedStartNanoseconds: arrival)
        }
    }

    static func readerLoop(_ reader: InspiredClient, index: Int, owners: [String], updating: UpdateCounter, origin: UInt64, context: ScenarioContext) async {
        guard !owners.isEmpty else { return }
        let p = context.parameters
        var random = Simulation.random("media/reader-\(index)")
        let me = reader.uid ?? "reader"
        for arrival in ScenarioSupport.arrivals(count: p[Parameter.readsPerReader], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin) {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let owner = owners[random.below(owners.count)]
            context.sometimes(Check.avatarReadDuringUpdate, updating.isUpdating(owner))
            context.note(me, "avatar-read \(owner)")
            do {
                let shown = try await reader.avatar(of: owner)
                // The owner's profile and avatar are public (set-up): only the image is right.
                if case .image = shown {
                    context.always(Check.avatarNeverBroken, true, "")
                } else {
                    context.always(Check.avatarNeverBroken, false, "\(me) viewing \(owner)'s public avatar saw \(shown)")
                }
            } catch {
                if case .backend(let backendError) = error, backendError.isTransientForReaders {
                    continue  // the network failed the profile read: the view shows "retry", not a broken image
                }
                context.always(Check.avatarNeverBroken, false, "\(me) viewing \(owner)'s public avatar got \(error)")
            }
            context.recordLatency("avatar-read", user: me, intendedStartNanoseconds: arrival)
        }
    }

    static func collectorLoop(_ collector: StampbookClient, index: Int, origin: UInt64, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("media/collector-\(index)")
        let uid = collector.uid ?? "collector"
        let arrivals = ScenarioSupport.arrivals(count: p[Parameter.collectsPerCollector], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin)
        for (stamp, arrival) in arrivals.enumerated() {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let stampId = "stamp\(stamp)"
            let photos = (0..<p[Parameter.photosPerCollect]).map { _ in StorageUpload(sizeBytes: 200_000 + random.below(2_000_000), contentType: "image/jpeg") }
            let doubleTap = random.below(100) < p[Parameter.doubleTapPercent]
            context.note(uid, doubleTap ? "double-tap collect-with-photos \(stampId)" : "collect-with-photos \(stampId)")
            let collect: @Sendable () async -> Void = {
                do {
                    let report = try await ScenarioSupport.retrying { try await collector.collectStamp(stampId, photos: photos) }
                    context.sometimes(Check.uploadRetried, report.attempts - StampbookApp.photoUploadAttempts * report.dropped > report.stored)
                    context.sometimes(Check.uploadDropped, report.dropped > 0 && report.stored > 0)
                    context.note(uid, "collected \(stampId) with \(report.stored) photo(s), \(report.dropped) dropped")
                } catch StampbookError.alreadyCollected {
                    context.sometimes(Check.doubleCollectCleanedUp, doubleTap)
                } catch {
                    context.note(uid, "collect \(stampId) failed: \(error)")
                }
            }
            if doubleTap {
                async let first: Void = collect()
                async let second: Void = collect()
                _ = await (first, second)
            } else {
                await collect()
            }
            context.recordLatency("collect-with-photos", user: uid, intendedStartNanoseconds: arrival)
        }
    }
}

extension BackendError {
    /// A network failure of the reader's profile read (the view offers a retry; not a broken image).
    var isTransientForReaders: Bool {
        switch self {
        case .unavailable, .deadlineExceeded: return true
        default: return false
        }
    }
}
