import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// KNB seat reservations: more users than seats, all reserving at about the same time.
public struct SeatContentionScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .seatContention }
    /// The name `rehearse` takes.
    public let name = "seat-contention"
    /// One line for `rehearse list`.
    public let summary = "users race for a few KNB seats; no seat may be reserved twice"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.seats,
        Parameter.attemptsPerUser,
        Parameter.windowSeconds,
        Parameter.releasePercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["reserveSeat", "releaseSeat"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([KNBVariant.seatRandomId, .seatReleasePlainDelete])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.noSeatDoubleBooked,
        Check.confirmedReservationsHeld,
        Check.releaseAnswerTrue,
        Check.seatTaken,
        Check.seatReleased,
    ]

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = KNBScenarioSupport.makeApp(context, duplicatePercent: 0)
        var signedUp: [KNBClient] = []
        for index in 0..<p[Parameter.users] { signedUp.append(await KNBScenarioSupport.signUp(app, email: "u\(index)@knb.org", name: "User \(index)")) }
        let users = signedUp
        let origin = Simulation.nowNanoseconds
        let confirmed = ConfirmedLog()
        let released = ConfirmedLog()
        try await context.monitored(every: .milliseconds(200), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (index, user) in users.enumerated() {
                    group.addTask {
                        var random = Simulation.random("seats/user-\(index)")
                        await KNBScenarioSupport.sleep(until: origin + UInt64(random.below(p[Parameter.windowSeconds] * 1_000)) * 1_000_000)
                        let arrival = Simulation.nowNanoseconds
                        for _ in 0..<p[Parameter.attemptsPerUser] where !context.isStopped {
                            let seat = 1 + random.below(p[Parameter.seats])
                            context.note(user.email, "reserve A-\(seat)")
                            do {
                                let path = try await ScenarioSupport.retrying { try await user.reserveSeat(row: "A", number: seat) }
                                confirmed.append(user: user.email, path: path)
                                context.note(user.email, "reserved A-\(seat)")
                                if random.below(100) < p[Parameter.releasePercent] {
                                    try? await SimClock().sleep(for: .milliseconds(1_000 + random.below(9_000)))
                                    await Self.release(user, path, app: app, released: released, context: context)
                                }
                                break
                            } catch KNBError.seatTaken {
                                context.sometimes(Check.seatTaken, true)
                                try? await SimClock().sleep(for: .milliseconds(500 + random.below(2_500)))
                            } catch {
                                context.note(user.email, "reserve failed: \(error)")
                            }
                        }
                        context.recordLatency("reserveSeat", user: user.email, intendedStartNanoseconds: arrival)
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        let releasedBy = Set(released.entries.map(\.user))
        for (user, path) in confirmed.entries where !releasedBy.contains(user) {
            let holder = app.backend.firestore.liveFields(path)?["reservedBy"]?.stringValue
            context.eventually(Check.confirmedReservationsHeld, holder == user, "\(user) was told \(path) is reserved, but it is held by \(holder ?? "nobody")")
        }
        try context.throwIfStopped()
    }

    /// The user releases the seat they hold (the app retries what the network lost), and the
    /// answer is judged against the server at that moment; `released` lists the users who tried,
    /// whose reservations the end no longer owes (an answer lost may hide a release).
    static func release(_ user: KNBClient, _ path: DocumentPath, app: KNBApp, released: ConfirmedLog, context: ScenarioContext) async {
        context.note(user.email, "release \(path.id)")
        released.append(user: user.email, path: path)  // from now on its answer judges the seat, not the reservation
        let start = Simulation.nowNanoseconds
        defer { context.recordLatency("releaseSeat", user: user.email, intendedStartNanoseconds: start) }
        do {
            try await ScenarioSupport.retrying { try await user.releaseSeat(path) }
            let holder = app.backend.firestore.liveFields(path)?["reservedBy"]?.stringValue
            context.always(Check.releaseAnswerTrue, holder != user.email, "\(user.email) was told \(path.id) is released, and still holds it")
            context.sometimes(Check.seatReleased, true)
            context.note(user.email, "released \(path.id)")
        } catch {
            context.note(user.email, "release failed: \(error)")
            switch BackendError.inside(error) {
            case .permissionDenied?, .notFound?, .failedPrecondition?, .invalidArgument?:
                let holder = app.backend.firestore.liveFields(path)?["reservedBy"]?.stringValue
                context.always(Check.releaseAnswerTrue, holder == user.email,
                               "\(user.email) was told releasing \(path.id) was refused (\(error)), but the seat is \(holder.map { "held by \($0)" } ?? "free"): it was released")
            default: return  // no answer, or a time-out: the user does not know either
            }
        }
    }

    static func checkState(_ app: KNBApp, _ context: ScenarioContext) {
        var holders: [String: [String]] = [:]
        for reservation in app.backend.firestore.query("seat_reservations") {
            let seat = "\(reservation["row"]?.stringValue ?? "?")-\(reservation["number"]?.intValue ?? -1)"
            holders[seat, default: []].append(reservation["reservedBy"]?.stringValue ?? "?")
        }
        for seat in holders.keys.sorted() {
            context.always(Check.noSeatDoubleBooked, holders[seat]!.count <= 1, "seat \(seat) reserved by \(holders[seat]!.joined(separator: " and "))")
        }
    }
}
