import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// UFree contact discovery (hash-based contact sync, phone number search by blind index): users
/// in the US and the UK register their numbers while others already look up their address books
/// (entries in every format people type), look up again once everyone is in, and signed-in
/// scripts try to learn numbers: by inverting what the rules let them read over the numbering
/// plan offline, then by enumerating the plan through the lookup itself.
public struct ContactDiscoveryScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .contactDiscovery }
    /// The name `rehearse` takes.
    public let name = "contact-discovery"
    /// One line for `rehearse list`.
    public let summary = "UFree contact discovery by blind index: address books in every format, registrations racing lookups, enumeration scripts"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users, Parameter.gbPercent, Parameter.contactsPerUser, Parameter.registerSpreadSeconds, Parameter.attackers,
        Parameter.lookupsPerDay,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["registerPhoneNumber", "discoverContacts"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([UFreeVariant.unsaltedPhoneHash, .lookupWithoutQuota, .contactsNotNormalized, .quotaInMemory])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.contactsFound, Check.noOfflineRecovery, Check.enumerationBounded, Check.quotaEnforced, Check.lateRegistrationFoundLater, Check.quotaRefused,
    ]

    /// The numbering plan the scenario hands out: 10,000 US numbers (+1 415 555 xxxx), then
    /// 10,000 GB numbers (+44 20 7946 xxxx).
    static let planSize = 20_000
    static func planNumber(_ slot: Int) -> String {
        let last4 = String(slot % 10_000).leftPadded(to: 4)
        return slot < 10_000 ? "+1415555\(last4)" : "+44207946\(last4)"
    }

    /// `e164` as an address book on a device in `region` may hold it (`style` picks one way).
    static func written(_ e164: String, from region: String, style: Int) -> String {
        if e164.hasPrefix("+1") {
            let national = Array(e164.dropFirst(2))
            let (a, b, c) = (String(national[0..<3]), String(national[3..<6]), String(national[6..<10]))
            let styles = region == "US"
                ? ["(\(a)) \(b)-\(c)", "\(a)-\(b)-\(c)", "+1 \(a) \(b) \(c)", "1 \(a).\(b).\(c)", "\(a)\(b)\(c)"]
                : ["+1 \(a) \(b) \(c)", "001 \(a) \(b) \(c)", "+1-\(a)-\(b)-\(c)"]
            return styles[style % styles.count]
        }
        let national = Array(e164.dropFirst(3))
        let (a, b, c) = (String(national[0..<2]), String(national[2..<6]), String(national[6..<10]))
        let styles = region == "GB"
            ? ["0\(a) \(b) \(c)", "+44 \(a) \(b) \(c)", "+44 (0)\(a) \(b) \(c)", "0\(a)\(b)\(c)"]
            : ["+44 \(a) \(b) \(c)", "011 44 \(a) \(b) \(c)", "+44\(a)\(b)\(c)"]
        return styles[style % styles.count]
    }

    /// One user's identity and address book: entries with the user each stands for (nil: a
    /// stranger or not a number) and whether the entry is a number of the plan (the server counts
    /// and answers those, in book order, and drops the others).
    struct Person: Sendable {
        let uid: String
        let region: String
        let number: String
        let book: [(entry: String, owner: String?, isNumber: Bool)]
        /// The entries of the book that are numbers of the plan.
        var numbers: Int { book.count(where: \.isNumber) }
    }

    /// Registrations that completed, by uid, what each user's first discovery found, and how many
    /// numbers each user's discovery requests carried (every attempt: one the user saw fail may
    /// still have been counted against the quota).
    final class Registry: Sendable {
        private let done = Mutex<Set<String>>([])
        private let sent = Mutex<Set<String>>([])
        private let found = Mutex<[String: Set<String>]>([:])
        private let looked = Mutex<[String: Int]>([:])
        func registered(_ uid: String) { _ = done.withLock { $0.insert(uid) } }
        func attempted(_ uid: String) { _ = sent.withLock { $0.insert(uid) } }
        var all: Set<String> { done.withLock { $0 } }
        /// Registrations sent whose outcome the user never learned (every attempt failed, the
        /// last perhaps after its effect): either outcome is right.
        var unknown: Set<String> { sent.withLock { $0 }.subtracting(all) }
        func firstFound(_ uid: String, _ entries: Set<String>) { found.withLock { $0[uid] = entries } }
        func firstFound(_ uid: String) -> Set<String>? { found.withLock { $0[uid] } }
        /// Records one discovery request of `uid` carrying `numbers` numbers of the plan.
        func lookedUp(_ uid: String, numbers: Int) { looked.withLock { $0[uid, default: 0] += numbers } }
        /// The numbers of the plan `uid`'s discovery requests carried so far.
        func lookedUp(_ uid: String) -> Int { looked.withLock { $0[uid] ?? 0 } }
    }

    /// Runs one seed: sign-ups and books, registrations racing first discoveries, then final
    /// discoveries and the scripts, then the checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = UFreeScenarioSupport.makeApp(context)
        app.deployContactDiscovery(lookupsPerDay: p[Parameter.lookupsPerDay])
        let people = Self.people(p)
        let attackers = (0..<p[Parameter.attackers]).map { "script-\($0)" }
        // One client per device for the whole run: a device's network draws go on from where they
        // were (a client made again for the same device would replay them, retries included).
        let clients = Dictionary(uniqueKeysWithValues: (people.map(\.uid) + attackers).map { ($0, app.client(uid: $0)) })
        await Self.signUp(clients, people: people, attackers: attackers)
        let registry = Registry()
        let origin = Simulation.nowNanoseconds
        let spread = UInt64(p[Parameter.registerSpreadSeconds]) * 1_000_000_000
        // Phase 1: each user registers and runs a first discovery at independent moments.
        await withTaskGroup(of: Void.self) { group in
            for (index, person) in people.enumerated() {
                group.addTask {
                    await Simulation.named(person.uid) {
                        await Self.firstPhase(clients[person.uid]!, person, style: index, origin: origin, spread: spread, registry: registry, context: context)
                    }
                }
            }
        }
        try context.throwIfStopped()
        // Phase 2: every registration has finished; each user discovers again, the scripts run.
        let registered = registry.all, unknown = registry.unknown
        let phase2 = Simulation.nowNanoseconds
        await withTaskGroup(of: Void.self) { group in
            for person in people {
                group.addTask {
                    await Simulation.named(person.uid) {
                        var random = Simulation.random("contact-discovery/\(person.uid)/final")
                        let at = phase2 + random.next() % 30_000_000_000
                        await ScenarioSupport.sleep(until: at)
                        guard let result = await Self.discover(clients[person.uid]!, person, registry: registry, context: context, intended: at) else { return }
                        Self.checkFound(
                            person, result, registered: registered, unknown: unknown, first: registry.firstFound(person.uid),
                            lookedUp: registry.lookedUp(person.uid), context: context)
                    }
                }
            }
            for attacker in attackers {
                group.addTask {
                    await Simulation.named(attacker) {
                        await Self.attack(clients[attacker]!, attacker, people: people, clock: app.backend.env.clock, context: context)
                    }
                }
            }
        }
        await app.backend.waitUntilIdle()
        try context.throwIfStopped()
    }

    /// Signs up every user (in their region's time zone), then every script.
    private static func signUp(_ clients: [String: UFreeClient], people: [Person], attackers: [String]) async {
        for person in people {
            _ = try? await ScenarioSupport.retrying { try await clients[person.uid]!.registerUser(displayName: person.uid, timeZoneIdentifier: person.region == "GB" ? "Europe/London" : "America/Los_Angeles") }
        }
        for attacker in attackers {
            _ = try? await ScenarioSupport.retrying { try await clients[attacker]!.registerUser(displayName: attacker, timeZoneIdentifier: "America/Los_Angeles") }
        }
    }

    /// One user's first phase: registering their number and a first discovery, each at its own
    /// drawn moment, racing each other.
    private static func firstPhase(
        _ client: UFreeClient, _ person: Person, style: Int, origin: UInt64, spread: UInt64, registry: Registry, context: ScenarioContext
    ) async {
        var random = Simulation.random("contact-discovery/\(person.uid)")
        let registerAt = origin + random.next() % spread, discoverAt = origin + random.next() % spread
        await withTaskGroup(of: Void.self) { steps in
            steps.addTask {
                await ScenarioSupport.sleep(until: registerAt)
                await Self.register(client, person, style: style, registry: registry, context: context, intended: registerAt)
            }
            steps.addTask {
                await ScenarioSupport.sleep(until: discoverAt)
                if let result = await Self.discover(client, person, registry: registry, context: context, intended: discoverAt) {
                    registry.firstFound(person.uid, Set(result.matches.map(\.entry)))
                }
            }
        }
    }

    /// Registers the user's number, written in the style `style` picks, recording every attempt.
    private static func register(
        _ client: UFreeClient, _ person: Person, style: Int, registry: Registry, context: ScenarioContext, intended: UInt64
    ) async {
        context.note(person.uid, "register \(person.number)")
        do {
            try await ScenarioSupport.retrying { registry.attempted(person.uid); try await client.registerPhoneNumber(Self.written(person.number, from: person.region, style: style), region: person.region) }
            registry.registered(person.uid)
        } catch {
            context.note(person.uid, "registration failed: \(error)")
        }
        context.recordLatency("registerPhoneNumber", user: person.uid, intendedStartNanoseconds: intended)
    }

    /// The users, their numbers (distinct slots of the plan) and address books.
    static func people(_ p: ScenarioParameters) -> [Person] {
        var random = Simulation.random("contact-discovery/plan")
        let count = p[Parameter.users]
        var usedSlots: Set<Int> = []
        var numbers: [(region: String, number: String)] = []
        for _ in 0..<count {
            let gb = random.below(100) < p[Parameter.gbPercent]
            var slot: Int
            repeat { slot = (gb ? 10_000 : 0) + random.below(10_000) } while usedSlots.contains(slot)
            usedSlots.insert(slot)
            numbers.append((gb ? "GB" : "US", planNumber(slot)))
        }
        return (0..<count).map { index in
            let region = numbers[index].region
            var book: [(String, String?, Bool)] = []
            for _ in 0..<p[Parameter.contactsPerUser] {
                let roll = random.below(10)
                if roll < 7 && count > 1 {
                    var other = random.below(count - 1)
                    if other >= index { other += 1 }
                    book.append((written(numbers[other].number, from: region, style: random.below(5)), "u\(other)", true))
                } else if roll < 9 {
                    var slot: Int
                    repeat { slot = random.below(planSize) } while usedSlots.contains(slot)
                    book.append((written(planNumber(slot), from: region, style: random.below(5)), nil, true))
                } else {
                    // Not a number of the plans: too short, a word, another country, a GB mobile missing digits.
                    book.append((["555-0199", "ask Sam", "+33 1 23 45 67 89", "07700 9001"][random.below(4)], nil, false))
                }
            }
            return Person(uid: "u\(index)", region: region, number: numbers[index].number, book: book)
        }
    }

    /// One discovery of `person`'s whole book (retried like any client call, each attempt counted
    /// in `registry`); nil if it failed.
    static func discover(_ client: UFreeClient, _ person: Person, registry: Registry, context: ScenarioContext, intended: UInt64) async -> UFreeDiscoveryResult? {
        context.note(person.uid, "discover \(person.book.count) contacts")
        defer { context.recordLatency("discoverContacts", user: person.uid, intendedStartNanoseconds: intended) }
        do {
            let result = try await ScenarioSupport.retrying {
                registry.lookedUp(person.uid, numbers: person.numbers)
                return try await client.discoverContacts(person.book.map(\.entry), region: person.region)
            }
            context.note(person.uid, result.unanswered == 0 ? "found \(result.matches.count)" : "found \(result.matches.count), \(result.unanswered) left unanswered (quota)")
            return result
        } catch {
            context.note(person.uid, "discovery failed: \(error)")
            return nil
        }
    }

    /// The final discovery against the book: every entry of a registered user the server answered
    /// found, as that user, and nothing else. The server answers the book's numbers in order up
    /// to the caller's quota and says how many it left unanswered: those the user was told were
    /// not looked up are not missing, but no more may be left than the numbers the user's requests
    /// carried (`lookedUp`, every attempt) beyond the quota.
    static func checkFound(
        _ person: Person, _ result: UFreeDiscoveryResult, registered: Set<String>, unknown: Set<String>, first: Set<String>?, lookedUp: Int,
        context: ScenarioContext
    ) {
        let quota = context.parameters[Parameter.lookupsPerDay]
        let spent = max(0, lookedUp - quota)
        let looked = person.book.filter(\.isNumber).prefix(max(0, person.numbers - result.unanswered))
        let expected = looked.compactMap { entry in entry.owner.flatMap { registered.contains($0) ? "\(entry.entry) → \($0)" : nil } }.sorted()
        let either = Set(person.book.compactMap { entry in entry.owner.flatMap { unknown.contains($0) ? "\(entry.entry) → \($0)" : nil } })
        let found = result.matches.map { "\($0.entry) → \($0.userId)" }.sorted()
        let missing = expected.filter { !found.contains($0) }, extra = found.filter { !expected.contains($0) && !either.contains($0) }
        context.eventually(Check.contactsFound, missing.isEmpty && extra.isEmpty && result.unanswered <= spent,
                           "\(person.uid) (\(person.region)) looked up \(person.book.count) contacts: missing \(missing.prefix(3)), unexpected \(extra.prefix(3)), unanswered \(result.unanswered) (its requests carried \(lookedUp) numbers against a quota of \(quota))")
        if let first {
            let lateFound = result.matches.contains { !first.contains($0.entry) }
            context.sometimes(Check.lateRegistrationFoundLater, lateFound && missing.isEmpty)
        }
    }

    /// A signed-in script: reads `users` and tries every number of the plan against what it
    /// finds (the app's code is public, so it knows how `hashedPhoneNumber` is computed), then
    /// looks the plan up through `discoverContacts` in batches of 100 until refused.
    static func attack(_ client: UFreeClient, _ attacker: String, people: [Person], clock: DomainClock, context: ScenarioContext) async {
        let truth = Dictionary(uniqueKeysWithValues: people.map { ($0.uid, $0.number) })
        context.note(attacker, "read users, invert offline")
        if let documents = try? await ScenarioSupport.retrying({ try await client.firestore.query("users") }) {
            var table: [String: String] = [:]
            for slot in 0..<planSize { let number = planNumber(slot); table[UFreePhoneNumber.publicHash(number)] = number }
            let recovered = documents.compactMap { document -> String? in
                let fields = document.fields ?? [:]
                let stored = fields.keys.sorted().compactMap { fields[$0]?.stringValue }
                guard let number = stored.lazy.compactMap({ table[$0] }).first, truth[document.id] == number else { return nil }
                return "\(document.id) = \(number)"
            }
            context.always(Check.noOfflineRecovery, recovered.isEmpty,
                           "\(attacker) read \(documents.count) user documents and recovered \(recovered.count) phone numbers offline, e.g. \(recovered.prefix(2))")
        }
        let quota = context.parameters[Parameter.lookupsPerDay]
        // The quota is per UTC day: a script still enumerating past midnight gets a new one.
        func day() -> Int64 { clock.now.unixNanoseconds / 86_400_000_000_000 }
        let firstDay = day()
        var position = 0, answered = 0, beyond: [String] = []
        var random = Simulation.random("contact-discovery/\(attacker)")
        // Two batches of 100 at a time, pipelined on one connection (one round trip, then both
        // requests reach the function in the same instant), as a script would.
        enumeration: while position < planSize {
            let first = position, second = min(position + 100, planSize)
            let batches = [Array((first..<second).map(planNumber)), Array((second..<min(second + 100, planSize)).map(planNumber))]
            context.note(attacker, "look up plan entries \(position)…")
            await ScenarioSupport.sleep(until: Simulation.nowNanoseconds + UInt64(20 + random.below(80)) * 1_000_000)
            let (a, b) = await client.discoverContactsPipelined(batches[0], batches[1], region: "US")
            var refused = false
            for (offset, (batch, outcome)) in zip([first, second], zip(batches, [a, b])) {
                switch outcome {
                case .success(let result):
                    let counted = batch.count - result.unanswered  // the server answers a prefix of the batch
                    answered += counted
                    for match in result.matches {
                        guard let index = batch.firstIndex(of: match.entry), index >= counted else { continue }
                        beyond.append("\(match.userId) = \(match.entry) (entry \(offset + index), \(counted) of its batch counted)")
                    }
                case .failure(.lookupQuotaExceeded):
                    refused = true
                case .failure(let error):
                    context.note(attacker, "lookup failed: \(error)")
                }
            }
            position = min(second + 100, planSize)
            if refused {
                context.sometimes(Check.quotaRefused, true)
                break enumeration
            }
        }
        let allowed = quota * Int(day() - firstDay + 1)
        context.always(Check.quotaEnforced, answered <= allowed,
                       "\(attacker) had \(answered) lookups answered against a quota of \(quota) a day (\(allowed) over the days it ran)")
        context.always(Check.enumerationBounded, beyond.isEmpty,
                       "\(attacker) learned \(beyond.count) numbers from entries the server left uncounted, e.g. \(beyond.prefix(2))")
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
