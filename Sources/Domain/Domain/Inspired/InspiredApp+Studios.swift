import SimulatedFirebase

/// Studio discovery (FEATURES.md § 2.2 and features 8–9): shadow profiles seeded from Google Places
/// by a scheduled Cloud Function, and the claiming flow that makes a verified owner the studio's
/// `ownerId` (docs/domain.md, Inspired studios).
extension InspiredApp {
    static func studio(_ studioId: String) -> DocumentPath { DocumentPath("studios", studioId) }

    /// Deploys studio discovery: the scheduled `seedShadowStudios` job (every `seedEvery`, driven
    /// by `backend.scheduler`, deployed with the longest timeout as it pages through every place)
    /// and the `claimStudio` callable, both reading `places`.
    public func deployStudios(places: InspiredPlaces, seedEvery period: Duration) {
        backend.functions.schedule("seedShadowStudios", every: period, timeout: Functions.maxTimeout) { [self] _ in
            try await seedShadowStudios(places: places)
        }
        backend.functions.callable("claimStudio") { [self] request in
            try await claimStudio(request, places: places)
        }
    }

    /// One seeding run: every listing open now becomes a shadow studio if it has no document, and
    /// an existing studio gets the listing's Places fields only if they are newer than the ones it
    /// holds (`placesRevision`), one server transaction per studio. A claimed studio keeps its
    /// owner and everything the owner manages; a duplicate or overlapping run changes nothing.
    func seedShadowStudios(places: InspiredPlaces) async throws {
        let listings = places.listings(at: backend.env.clock.now)
        for listing in variant == .placesFirstPageOnly ? Array(listings.prefix(20)) : listings {
            let path = Self.studio(listing.studioId)
            let placesData: Fields = [
                "name": .string(listing.name), "address": .string(listing.address), "rating": .double(listing.rating),
                "reviewCount": .int(listing.reviewCount), "placesRevision": .int(listing.revision),
            ]
            if variant == .reseedOverwritesClaim {
                // "Shadow State: Seeded from Google Places … isClaimed: false", written as the whole document.
                try await backend.firestore.set(path, Self.shadowStudio(listing.studioId, placesData))
                continue
            }
            try await backend.firestore.runTransaction { transaction in
                let current = try await transaction.get(path)
                guard current.exists else {
                    transaction.create(path, Self.shadowStudio(listing.studioId, placesData))
                    return
                }
                if let held = current["placesRevision"]?.intValue, held >= listing.revision { return }
                transaction.update(path, FieldUpdates(uniqueKeysWithValues: placesData.map { ($0.key, FieldUpdate.set($0.value)) }))
            }
        }
    }

    static func shadowStudio(_ studioId: String, _ placesData: Fields) -> Fields {
        var fields = placesData
        fields["id"] = .string(studioId)
        fields["about"] = .string("")
        fields["isClaimed"] = .bool(false)
        fields["ownerId"] = .null
        fields["moderationSettings"] = .map(["autoApproveMemberComments": .bool(true), "guestCommentsEnabled": .bool(false)])
        return fields
    }

    /// The `claimStudio` callable: a signed-in caller with the business's verification code becomes
    /// the owner of a shadow studio, in one server transaction, so of two owners claiming at once
    /// exactly one wins. A repeated claim by the owner (a retried call) succeeds again.
    func claimStudio(_ request: CallableRequest, places: InspiredPlaces) async throws -> Value {
        guard let userId = request.auth?.uid else { throw InspiredError.unauthenticated }
        guard let studioId = request.data["studioId"]?.stringValue, let code = request.data["code"]?.stringValue else {
            throw InspiredError.backend(.invalidArgument("claimStudio needs studioId and code"))
        }
        guard code == places.claimCode(studioId) else { throw InspiredError.claimCodeInvalid(studioId: studioId) }
        let path = Self.studio(studioId)
        let claim: FieldUpdates = [
            "isClaimed": .set(.bool(true)), "ownerId": .set(.string(userId)), "claimedAt": .set(.timestamp(backend.env.clock.now)),
        ]
        if variant == .claimCheckThenWrite {
            // Read, check, write: the check and the write are separate admin-SDK calls.
            let studio = await backend.firestore.get(path)
            guard studio.exists else { throw InspiredError.studioNotFound(studioId: studioId) }
            if studio["isClaimed"] == .bool(true) {
                if studio["ownerId"]?.stringValue == userId { return .string(userId) }
                throw InspiredError.studioAlreadyClaimed(studioId: studioId)
            }
            try await backend.firestore.update(path, claim)
            return .string(userId)
        }
        try await backend.firestore.runTransaction { transaction in
            let studio = try await transaction.get(path)
            guard studio.exists else { throw InspiredError.studioNotFound(studioId: studioId) }
            if studio["isClaimed"] == .bool(true) {
                if studio["ownerId"]?.stringValue == userId { return }
                throw InspiredError.studioAlreadyClaimed(studioId: studioId)
            }
            transaction.update(path, claim)
        }
        return .string(userId)
    }

    /// Claims `studioId` with the business's verification code, through the `claimStudio` callable.
    func claimStudio(_ studioId: String, code: String, as client: FirestoreClient) async throws(InspiredError) {
        do {
            _ = try await client.call("claimStudio", ["studioId": .string(studioId), "code": .string(code)])
        } catch { throw InspiredError.wrap(error) }
    }

    /// The owner edits the studio's `about` (a management feature the claim unlocks; the rules
    /// allow only the owner, and only `about` and `moderationSettings`).
    func updateStudioAbout(_ studioId: String, about: String, as client: FirestoreClient) async throws(InspiredError) {
        guard about.count <= Self.aboutLengthMaximum else { throw .contentTooLong(length: about.count, maximum: Self.aboutLengthMaximum) }
        do {
            try await client.updateData(Self.studio(studioId), ["about": .set(.string(about))])
        } catch { throw .backend(error) }
    }

    /// Characters a studio's `about` may have (§ 2.2: "Max 500 chars").
    public static let aboutLengthMaximum = 500

    /// Studio rules: anyone reads (a business profile is public); only the owner updates, and only
    /// `about` and `moderationSettings`; creation, claiming and deletion are the functions' (admin SDK).
    static func addStudioRules(_ rules: inout SecurityRules) {
        rules.match("studios") { request in
            switch request.operation {
            case .get, .list: return true
            case .create, .delete: return false
            case .update:
                guard let uid = request.auth?.uid, request.resource?["ownerId"]?.stringValue == uid else { return false }
                let before = request.resource ?? [:], after = request.data ?? [:]
                return Set(before.keys).union(after.keys).allSatisfy { $0 == "about" || $0 == "moderationSettings" || RuleRequest.same(before[$0], after[$0]) }
            }
        }
    }
}
