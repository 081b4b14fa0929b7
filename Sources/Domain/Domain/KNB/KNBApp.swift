import Synchronization
import SimulatedFirebase

/// The KNB app's backend half: deploys its security rules and Cloud Functions (OUTBID,
/// totalPledged, likes/replies/admin-post notifications, kiddush email + calendar) on a
/// `Backend`, and hands out per-user `KNBClient`s. Careful by default; `variant` selects a
/// literal design (see `KNBVariant`).
public final class KNBApp: Sendable {
    /// The backend the app is deployed on.
    public let backend: Backend
    /// The design that runs.
    public let variant: KNBVariant
    /// Whether `onUserUpdate` (name propagation) is deployed. Off by default: every write to
    /// `users` would otherwise dispatch one more trigger and move existing seeds' traces.
    public let propagatesNames: Bool
    /// The congregation website the 30-minute syncs scrape; nil: the syncs are not deployed.
    public let website: KNBWebsite?
    /// Fetch latency and failures of `website` (its own stream: deploying the syncs moves no
    /// other draw).
    let websiteRandom: SharedRandom?
    /// The devices' in-memory tap guards (`like-guard-reentrant`), keyed by user and post.
    let deviceMemory: InstanceMemory
    /// Module-level state of the functions' instances, keyed "function#instance/…"
    /// (`outbid-dedup-in-instance`): an instance's keys mean nothing to the next one.
    let instanceGlobals = Mutex<Set<String>>([])
    /// Seed: `KIDDUSH_BOOKING_NOTIFY_TO` has three recipients.
    public static let bookingRecipients = ["office@knb.org", "kiddush@knb.org", "rabbi@knb.org"]
    /// The From address of kiddush booking emails.
    public static let bookingSender = "noreply@knb.org"
    /// Attempts at a SendGrid call that returned 429 (nothing was sent, so retrying is safe).
    static let emailRateLimitAttempts = 3
    /// The longest a booking email's function waits in place for SendGrid's rate to reset; a later
    /// reset is left to the trigger's redelivery (the function's timeout is 60 s).
    static let emailResetWaitMax = Duration.seconds(20)

    /// Builds the app on `backend`, deploys KNB's rules and functions.
    /// `website`, when given, deploys `syncKiddushCalendar` and `syncCommunityOccasions` (every
    /// 30 minutes on `backend.scheduler`) scraping it.
    public init(backend: Backend, variant: KNBVariant = .careful, propagatesNames: Bool = false, website: KNBWebsite? = nil) {
        self.backend = backend
        self.variant = variant
        self.propagatesNames = propagatesNames
        self.website = website
        self.websiteRandom = website == nil ? nil : SharedRandom(backend.env, stream: "knb-website")
        self.deviceMemory = InstanceMemory(env: backend.env, label: "knb-devices")
        backend.setRules(KNBRules.rules, source: KNBRules.rulesText)
        backend.storage.setRules(KNBRules.storageRules(checksSize: variant != .storageRulesNoSizeCheck))
        installFunctions()
    }

    /// A convenience: builds the backend from an environment, then the app.
    public convenience init(env: DomainEnvironment, faults: BackendFaults = .default, variant: KNBVariant = .careful) {
        self.init(backend: Backend(env: env, faults: faults), variant: variant)
    }

    /// The app on one user's device, signed in as `email`.
    public func client(email: String, name: String) -> KNBClient {
        KNBClient(app: self, email: email, name: name)
    }

    func has(_ variant: KNBVariant) -> Bool { self.variant == variant }

    var firestore: Firestore { backend.firestore }

    /// Creates the accounts' user documents as `register` then `registerToken` leave them, in
    /// admin batches of 500 writes: a load run's set-up against a real server, where thousands of
    /// sign-ins one request at a time would take tens of seconds. Existing users are overwritten.
    public func importUsers(_ accounts: [(email: String, name: String, token: String)]) async throws(BackendError) {
        let now = backend.env.clock.now
        try await commitInBatches(accounts.map { account in
            var fields = KNBClient.newUser(email: account.email, name: account.name)
            fields["fcmTokens"] = .map([account.token: KNBClient.tokenEntry(at: now)])
            return (Self.userPath(account.email), .set(fields))
        })
    }

    /// Creates honors as an admin's `createHonor` leaves them (category `general`), in admin
    /// batches of 500 writes: a load run's set-up against a real server.
    public func importHonors(_ honors: [(id: String, name: String, buyNowPrice: Double)]) async throws(BackendError) {
        try await commitInBatches(honors.map { honor in
            (DocumentPath("honors", honor.id), .set(KNBClient.newHonor(name: honor.name, buyNowPrice: honor.buyNowPrice, category: "general")))
        })
    }

    /// `writes` as admin batches of at most 500 (Firestore's limit per commit).
    private func commitInBatches(_ writes: [(DocumentPath, WriteOperation)]) async throws(BackendError) {
        var start = 0
        while start < writes.count {
            try await backend.firestore.commitBatch(Array(writes[start..<min(writes.count, start + 500)]))
            start += 500
        }
    }

    static func userPath(_ email: String) -> DocumentPath { DocumentPath("users", email) }
    static func markPath(_ key: String) -> DocumentPath { DocumentPath("knb_marks", key) }
}
