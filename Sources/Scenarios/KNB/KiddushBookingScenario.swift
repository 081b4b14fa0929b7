import Domain
import Sim

/// KNB kiddush sponsorship: users (some admins) race to book a few Shabbat dates.
public struct KiddushBookingScenario: Scenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .kiddushBooking }
    /// The name `rehearse` takes.
    public let name = "kiddush-booking"
    /// One line for `rehearse list`.
    public let summary = "users and admins race to sponsor a few kiddush dates; one booking and one email per date"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.admins,
        Parameter.dates,
        Parameter.windowSeconds,
        Parameter.duplicatePercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["bookKiddush"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([KNBVariant.kiddushRandomId, .kiddushSetDataOverwrite, .kiddushCheckSendSet])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.oneBookingPerDate,
        Check.rejectionSaysAlreadyBooked,
        Check.bookedUserIsSponsor,
        Check.oneEmailPerBooking,
        Check.dateAlreadyBooked,
    ]

    /// Refuses parameter combinations the ranges alone allow but the workload cannot run.
    public func validate(_ parameters: ScenarioParameters) throws(ScenarioError) {
        if parameters[Parameter.admins] > parameters[Parameter.users] {
            throw .invalidParameter(name: Parameter.admins.name, value: parameters[Parameter.admins], reason: "cannot exceed users (\(parameters[Parameter.users]))")
        }
    }

    static func date(_ index: Int) -> String { "2026-02-\(String(format: "%02d", 7 + 7 * index % 21))" }

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = KNBScenarioSupport.makeApp(context, duplicatePercent: p[Parameter.duplicatePercent])
        var signedUp: [KNBClient] = []
        for index in 0..<p[Parameter.users] {
            signedUp.append(await KNBScenarioSupport.signUp(app, email: "u\(index)@knb.org", name: "User \(index)", admin: index < p[Parameter.admins]))
        }
        let users = signedUp
        let origin = Simulation.nowNanoseconds
        let confirmed = ConfirmedLog()
        try await context.monitored(every: .milliseconds(200), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (index, user) in users.enumerated() {
                    group.addTask {
                        var random = Simulation.random("kiddush/user-\(index)")
                        await KNBScenarioSupport.sleep(until: origin + UInt64(random.below(p[Parameter.windowSeconds] * 1_000)) * 1_000_000)
                        let arrival = Simulation.nowNanoseconds
                        let date = Self.date(random.below(p[Parameter.dates]))
                        context.note(user.email, "book \(date)")
                        do {
                            let path = try await ScenarioSupport.retrying {
                                try await user.bookKiddush(date: date, occasion: "Simcha", tierName: "Gold", tierAmount: 500)
                            }
                            confirmed.append(user: user.email, path: path)
                            context.note(user.email, "booked \(date)")
                        } catch KNBError.dateAlreadyBooked {
                            context.sometimes(Check.dateAlreadyBooked, true)
                            context.always(Check.rejectionSaysAlreadyBooked, true, "")
                            context.note(user.email, "\(date) already booked")
                        } catch KNBError.backend(.permissionDenied(let operation, let path)) {
                            context.always(Check.rejectionSaysAlreadyBooked, false, "\(user.email) booking \(date) got PERMISSION_DENIED (\(operation) \(path))")
                        } catch {
                            context.note(user.email, "booking failed: \(error)")
                        }
                        context.recordLatency("bookKiddush", user: user.email, intendedStartNanoseconds: arrival)
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        let firestore = app.backend.firestore
        for (user, path) in confirmed.entries {
            let sponsor = firestore.liveFields(path)?["sponsorEmail"]?.stringValue
            context.eventually(Check.bookedUserIsSponsor, sponsor == user, "\(user) was told \(path) is booked, but the sponsor is \(sponsor ?? "nobody")")
        }
        let emails = app.backend.outbox.records.filter { $0.channel == .email && $0.type == "KIDDUSH_BOOKING" }
        for booking in firestore.query("kiddush_sponsorships") {
            for recipient in KNBApp.bookingRecipients {
                let count = emails.filter { $0.recipient == recipient && ($0.payload["body"] ?? "").hasSuffix("(\(booking.id))") }.count
                context.eventually(Check.oneEmailPerBooking, count == 1, "booking \(booking.id) sent \(count) emails to \(recipient)")
            }
        }
        try context.throwIfStopped()
    }

    static func checkState(_ app: KNBApp, _ context: ScenarioContext) {
        var byDate: [String: Int] = [:]
        for booking in app.backend.firestore.query("kiddush_sponsorships") { byDate[booking["date"]?.stringValue ?? "?", default: 0] += 1 }
        for date in byDate.keys.sorted() {
            context.always(Check.oneBookingPerDate, byDate[date]! <= 1, "\(byDate[date]!) sponsorships of \(date)")
        }
    }
}
