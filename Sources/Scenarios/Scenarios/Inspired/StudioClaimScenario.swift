import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// Inspired studio discovery: a scheduled function seeds shadow studios from a Google Places
/// catalogue that changes over virtual time; would-be owners claim each studio at nearly the same
/// moment (some with a wrong verification code); owners edit their studio while seeding runs go on.
public struct StudioClaimScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .studioClaim }
    /// The name `rehearse` takes.
    public let name = "studio-claim"
    /// One line for `rehearse list`.
    public let summary = "Inspired shadow studios seeded from Places every 30 min, concurrent claims, owner edits during re-seeding"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.studios, Parameter.claimantsPerStudio, Parameter.claimSpreadMilliseconds, Parameter.impostorPercent,
        Parameter.editsPerOwner, Parameter.seedIntervalMinutes, Parameter.hours,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["claim", "edit"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([InspiredVariant.reseedOverwritesClaim, .claimCheckThenWrite, .placesFirstPageOnly])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.claimedHasOwner, Check.oneOwnerTold, Check.claimKept, Check.ownerEditKept, Check.everyPlaceSeeded,
        Check.placesDataCurrent, Check.claimRefused, Check.impostorRefused,
    ]

    /// What the claimants were told and what owners sent: the oracle's record, kept by the users.
    final class ClaimBook: Sendable {
        struct Entry: Sendable {
            var owners: [String] = []
            var acknowledgedEdits: [String] = []
            var sentAfterLastAcknowledged: [String] = []
        }
        private let entries = Mutex<[String: Entry]>([:])
        /// Records `owner` told they own `studioId`; returns every owner told so far.
        func told(_ studioId: String, owner: String) -> [String] {
            entries.withLock { table in
                table[studioId, default: Entry()].owners.append(owner)
                return table[studioId]!.owners
            }
        }
        func sent(_ studioId: String, _ about: String) { entries.withLock { $0[studioId, default: Entry()].sentAfterLastAcknowledged.append(about) } }
        func acknowledged(_ studioId: String, _ about: String) {
            entries.withLock { table in
                table[studioId, default: Entry()].acknowledgedEdits.append(about)
                table[studioId]!.sentAfterLastAcknowledged = []
            }
        }
        var snapshot: [(studioId: String, entry: Entry)] { entries.withLock { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } } }
    }

    /// Runs one seed: seeding on the scheduler, the claimants and owners, a monitor, then the end checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let backend = context.backend()
        let app = InspiredApp(backend: backend, variant: ScenarioSupport.variant(context, InspiredVariant.self))
        var random = Simulation.random("studio-claim/catalogue")
        let start = backend.env.clock.now
        let hours = Duration.seconds(3_600 * p[Parameter.hours])
        let end = start + hours
        let places = InspiredPlaces(count: p[Parameter.studios], origin: start, openingSpan: hours / 2, seed: random.next())
        let interval = Duration.seconds(60 * p[Parameter.seedIntervalMinutes])
        app.deployStudios(places: places, seedEvery: interval)
        await backend.scheduler.start(firstTick: start, until: end)
        let book = ClaimBook()
        let origin = Simulation.nowNanoseconds  // the simulator's clock at `start`
        try await context.monitored(every: .seconds(10), check: { Self.checkState(backend, book: book, context: context) }) {
            await withTaskGroup(of: Void.self) { group in
                for studio in 0..<p[Parameter.studios] {
                    for claimant in 0..<p[Parameter.claimantsPerStudio] {
                        group.addTask {
                            await Simulation.named("claimant-\(studio)-\(claimant)") {
                                await Self.claimant(app, studio: studio, index: claimant, places: places, origin: origin, hours: hours, book: book, context: context)
                            }
                        }
                    }
                }
            }
            await backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        Self.checkState(backend, book: book, context: context)
        var lastTick = start
        while lastTick + interval <= end { lastTick = lastTick + interval }
        // A run whose instance crashed (or that timed out) is not retried (Cloud Scheduler's
        // default): the data is as current as the last tick whose run was not terminated.
        let terminated = ScenarioSupport.terminatedInvocations(backend, function: "seedShadowStudios")
        while lastTick >= start && terminated[CloudScheduler.target(lastTick)] != nil { lastTick = lastTick - interval }
        Self.checkEnd(backend, places: places, lastTick: lastTick, book: book, context: context)
        try context.throwIfStopped()
    }

    /// One would-be owner: claims when the studio opens (retrying until seeding has created it),
    /// then, if told they own it, edits its about text now and then.
    static func claimant(
        _ app: InspiredApp, studio: Int, index: Int, places: InspiredPlaces, origin: UInt64, hours: Duration, book: ClaimBook,
        context: ScenarioContext
    ) async {
        // Simulator nanoseconds (what `sleep(until:)` takes) from the catalogue's wall-clock origin.
        let end = origin + UInt64(hours.nanoseconds)
        let opens = origin + UInt64(places.opensAt(studio).unixNanoseconds - places.origin.unixNanoseconds)
        let p = context.parameters
        let uid = "owner-\(studio)-\(index)"
        let studioId = InspiredPlaces.studioId(studio)
        let client = app.client(uid: uid)
        var random = Simulation.random("studio-claim/\(uid)")
        let impostor = random.below(100) < p[Parameter.impostorPercent]
        let code = impostor ? "000000-wrong" : places.claimCode(studioId)
        let spread = UInt64(p[Parameter.claimSpreadMilliseconds]) * 1_000_000
        var attempt = opens + (spread == 0 ? 0 : random.next() % (spread + 1))
        var owned = false
        while !context.isStopped {
            await ScenarioSupport.sleep(until: attempt)
            let intended = attempt
            context.note(uid, "claim \(studioId)\(impostor ? " (wrong code)" : "")")
            do {
                try await ScenarioSupport.retrying { try await client.claimStudio(studioId, code: code) }
                let told = book.told(studioId, owner: uid)
                context.always(Check.oneOwnerTold, told.count == 1, "\(studioId): \(told) were each told they own it")
                owned = true
            } catch InspiredError.studioNotFound {
                // Not seeded yet: the owner tries again a few minutes later (claimants stay together).
                attempt += 5 * 60 * 1_000_000_000
                if attempt < end { continue }
            } catch InspiredError.studioAlreadyClaimed {
                context.sometimes(Check.claimRefused, true)
            } catch InspiredError.claimCodeInvalid {
                context.sometimes(Check.impostorRefused, true)
            } catch {}
            context.recordLatency("claim", user: uid, intendedStartNanoseconds: intended)
            break
        }
        guard owned else { return }
        let now = UInt64(Simulation.nowNanoseconds)
        guard end > now else { return }
        let remaining = end - now
        let edits = (0..<p[Parameter.editsPerOwner]).map { _ in now + random.next() % remaining }.sorted()
        for (number, at) in edits.enumerated() {
            await ScenarioSupport.sleep(until: at)
            if context.isStopped { return }
            let about = "About \(studioId) by \(uid), edit \(number + 1)"
            context.note(uid, "edit \(studioId) #\(number + 1)")
            book.sent(studioId, about)
            if (try? await ScenarioSupport.retrying({ try await client.updateStudioAbout(studioId, about: about) })) != nil {
                book.acknowledged(studioId, about)
            }
            context.recordLatency("edit", user: uid, intendedStartNanoseconds: at)
        }
    }

    /// Always-checks from the committed studio documents and the claimants' record.
    static func checkState(_ backend: Backend, book: ClaimBook, context: ScenarioContext) {
        let studios = backend.firestore.query("studios")
        for studio in studios {
            let claimed = studio["isClaimed"] == .bool(true)
            let owner = studio["ownerId"]?.stringValue
            context.always(Check.claimedHasOwner, claimed == (owner != nil), "\(studio.id) isClaimed \(claimed) ownerId \(owner ?? "null")")
        }
        for (studioId, entry) in book.snapshot {
            guard let told = entry.owners.last else { continue }
            let fields = backend.firestore.liveFields(DocumentPath("studios", studioId)) ?? [:]
            let owner = fields["ownerId"]?.stringValue
            context.always(Check.claimKept, fields["isClaimed"] == .bool(true) && owner == told,
                           "\(told) was told they own \(studioId), but it is \(fields["isClaimed"] == .bool(true) ? "owned by \(owner ?? "nobody")" : "a shadow again")")
        }
    }

    /// End checks: seeding reached every place, Places fields are consistent and current, owners' edits kept.
    static func checkEnd(_ backend: Backend, places: InspiredPlaces, lastTick: Timestamp, book: ClaimBook, context: ScenarioContext) {
        let minimumRevision = places.revision(at: lastTick)
        for index in 0..<places.count where places.opensAt(index) <= lastTick {
            let studioId = InspiredPlaces.studioId(index)
            guard let fields = backend.firestore.liveFields(DocumentPath("studios", studioId)) else {
                context.eventually(Check.everyPlaceSeeded, false, "\(studioId) opened at \(places.opensAt(index)) but has no studio after the tick at \(lastTick)")
                continue
            }
            context.eventually(Check.everyPlaceSeeded, true, "")
            let revision = fields["placesRevision"]?.intValue ?? -1
            let expected = places.listing(index, revision: revision)
            let matches = fields["name"] == .string(expected.name) && fields["address"] == .string(expected.address)
                && fields["rating"] == .double(expected.rating) && fields["reviewCount"] == .int(expected.reviewCount)
            context.eventually(Check.placesDataCurrent, matches && revision >= minimumRevision,
                               "\(studioId) holds revision \(revision) (the last tick saw \(minimumRevision)): rating \(fields["rating"].map { "\($0)" } ?? "none"), expected \(expected.rating)")
        }
        for (studioId, entry) in book.snapshot {
            guard let last = entry.acknowledgedEdits.last else { continue }
            let about = backend.firestore.liveFields(DocumentPath("studios", studioId))?["about"]?.stringValue ?? ""
            context.eventually(Check.ownerEditKept, about == last || entry.sentAfterLastAcknowledged.contains(about),
                               "\(studioId) about is \"\(about)\" but the owner's last acknowledged edit was \"\(last)\"")
        }
    }
}
