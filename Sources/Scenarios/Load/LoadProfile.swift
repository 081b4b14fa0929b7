import Domain

/// What `rehearse load` runs for one scenario: set-up on a real-runtime `DomainEnvironment`, then
/// one *iteration* (one arrival in the open model, one loop turn of a virtual user in the closed
/// model) calling the Domain app's client code directly. The simulated scenarios drive users
/// through `ScenarioContext` and `Simulation.*`, which load mode must not touch, so each profile
/// is a small, separate workload over the same client code, not a re-run of the scenario.
///
/// Nothing here reads the wall clock: waits go through the environment's injected `DomainClock`.
public struct LoadProfile: Sendable {
    /// The operations of one set-up app: `iterate(index, user, record)` runs iteration `index`
    /// as pool user `user` and reports each timed operation through `record`.
    public struct Workload: Sendable {
        public let iterate: @Sendable (_ index: Int, _ user: Int, _ record: LoadRecorder) async -> Void
    }

    /// The scenario this profile stands in for.
    public let scenario: String
    /// One line: which operations, on what.
    public let summary: String
    /// The operation names it records (for thresholds and docs).
    public let operations: [String]
    /// Users signed up for the run (iterations are spread over them).
    public let users: Int
    /// Builds the app on `env` and returns its workload (not timed).
    public let setUp: @Sendable (_ env: DomainEnvironment) async -> Workload

    /// Every profile, by scenario name.
    public static let all: [LoadProfile] = [auctionRace, likeStorm, seatContention]

    /// The profile of `scenario`, if it has one.
    public static func named(_ scenario: String) -> LoadProfile? { all.first { $0.scenario == scenario } }

    /// Times one operation from `intendedStart` (the arrival's scheduled instant in the open model)
    /// and reports it, with whether it failed.
    public final class LoadRecorder: Sendable {
        let sink: @Sendable (_ operation: String, _ intendedStartNanoseconds: UInt64, _ failed: Bool) -> Void
        /// The iteration's intended start, in run-relative nanoseconds.
        public let intendedStartNanoseconds: UInt64
        /// Run-relative nanoseconds now (the runner's wall clock).
        public let now: @Sendable () -> UInt64

        init(intendedStartNanoseconds: UInt64, now: @escaping @Sendable () -> UInt64,
             sink: @escaping @Sendable (String, UInt64, Bool) -> Void) {
            self.intendedStartNanoseconds = intendedStartNanoseconds
            self.now = now
            self.sink = sink
        }

        /// Records `operation` as started at `start` (default: the iteration's intended start).
        public func record(_ operation: String, start: UInt64? = nil, failed: Bool = false) {
            sink(operation, start ?? intendedStartNanoseconds, failed)
        }
    }

    // MARK: - Profiles

    /// `placeBid` on `honors` KNB honors by a pool of users: read the honor, bid above it, retry a lost race.
    static let auctionRace = LoadProfile(
        scenario: "auction-race", summary: "placeBid on 4 honors by a pool of 20 users (read, outbid, retry a lost race up to 3 times)",
        operations: ["placeBid"], users: 20
    ) { env in
        let app = KNBApp(env: env, faults: faults(duplicatePercent: 5))
        let admin = await signUp(app, env, email: "admin@knb.org", name: "Admin", admin: true)
        let honorIds = (0..<4).map { "h\($0)" }
        for id in honorIds {
            // A price no load run reaches: bids never hit Buy Now.
            _ = try? await retrying(env) { try await admin.createHonor(id: id, name: "Honor \(id)", buyNowPrice: 1e15) }
        }
        let users = await signUpPool(app, env, count: 20)
        return Workload { index, user, recorder in
            let bidder = users[user % users.count]
            let honorId = honorIds[index % honorIds.count]
            var failed = true
            for _ in 0..<3 {  // a lost race (bid too low) is retried with a fresh read
                guard let honor = try? await retrying(env, { try await bidder.firestore.get(DocumentPath("honors", honorId)) }),
                      let fields = honor.fields else { break }
                let amount = (fields["currentBid"]?.doubleValue ?? 0) + Double(1 + index % 20)
                do {
                    _ = try await retrying(env) { try await bidder.placeBid(honorId: honorId, amount: amount) }
                    failed = false
                    break
                } catch KNBError.bidTooLow {
                    continue
                } catch {
                    break
                }
            }
            recorder.record("placeBid", failed: failed)
        }
    }

    /// like / unlike / reply on one KNB post by a pool of users.
    static let likeStorm = LoadProfile(
        scenario: "like-storm", summary: "like (50 %), unlike (25 %), reply (25 %) on one post by a pool of 20 users",
        operations: ["like", "unlike", "reply"], users: 20
    ) { env in
        let app = KNBApp(env: env, faults: faults(duplicatePercent: 10))
        let author = await signUp(app, env, email: "author@knb.org", name: "Author")
        let post = (try? await retrying(env) { try await author.createPost("The post") })?.id ?? "missing"
        let users = await signUpPool(app, env, count: 20)
        return Workload { index, user, recorder in
            let client = users[user % users.count]
            switch index % 4 {
            case 0, 2:
                let failed = (try? await retrying(env) { try await client.like(post) }) == nil
                recorder.record("like", failed: failed)
            case 1:
                let failed = (try? await retrying(env) { try await client.unlike(post) }) == nil
                recorder.record("unlike", failed: failed)
            default:
                let failed = (try? await retrying(env) { try await client.reply(to: post, "Reply from \(client.name)") }) == nil
                recorder.record("reply", failed: failed)
            }
        }
    }

    /// reserve / release on 20 KNB seats by a pool of users.
    static let seatContention = LoadProfile(
        scenario: "seat-contention", summary: "reserveSeat on one of 20 seats by a pool of 40 users, releaseSeat when it was won",
        operations: ["reserveSeat", "releaseSeat"], users: 40
    ) { env in
        let app = KNBApp(env: env, faults: faults(duplicatePercent: 0))
        let users = await signUpPool(app, env, count: 40)
        return Workload { index, user, recorder in
            let client = users[user % users.count]
            let seat = 1 + (index * 7 + user) % 20
            let path: DocumentPath?
            var failed = false
            do {
                path = try await retrying(env) { try await client.reserveSeat(row: "A", number: seat) }
            } catch KNBError.seatTaken {
                path = nil  // a business outcome, not a failure
            } catch {
                path = nil
                failed = true
            }
            recorder.record("reserveSeat", failed: failed)
            guard let path else { return }
            let start = recorder.now()
            let releaseFailed = (try? await retrying(env) { try await client.releaseSeat(path) }) == nil
            recorder.record("releaseSeat", start: start, failed: releaseFailed)
        }
    }

    // MARK: - Support

    /// The backend faults the scenarios use (documented defaults), with their duplicate rate.
    static func faults(duplicatePercent: Int) -> BackendFaults {
        var faults = BackendFaults.default
        faults.triggerDuplicateProbability = Double(duplicatePercent) / 100
        return faults
    }

    static func signUp(_ app: KNBApp, _ env: DomainEnvironment, email: String, name: String, admin: Bool = false) async -> KNBClient {
        let client = app.client(email: email, name: name)
        _ = try? await retrying(env) { try await client.register() }
        _ = try? await retrying(env) { try await client.registerToken("tok-\(email)") }
        if admin { _ = try? await app.backend.firestore.update(DocumentPath("users", email), ["isAdmin": .set(true)]) }
        return client
    }

    /// `count` users signed up concurrently (set-up is not timed, but should not take long).
    static func signUpPool(_ app: KNBApp, _ env: DomainEnvironment, count: Int) async -> [KNBClient] {
        await withTaskGroup(of: (Int, KNBClient).self) { group in
            for index in 0..<count {
                group.addTask { (index, await signUp(app, env, email: "u\(index)@knb.org", name: "User \(index)")) }
            }
            var clients: [(Int, KNBClient)] = []
            for await entry in group { clients.append(entry) }
            return clients.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The client retry policy (`ClientRetry`) on the environment's clock.
    static func retrying<T>(_ env: DomainEnvironment, attempts: Int = 3, _ body: () async throws -> T) async throws -> T {
        try await ClientRetry.retrying(attempts: attempts, sleep: { try? await env.clock.sleep(for: $0) }, body)
    }
}
