import SimulatedFirebase

/// Contact discovery and phone number search (seed: "Contact Discovery: Hash-based contact sync +
/// matching", "Phone Number Search: Blind index lookup, privacy-safe", `hashedPhoneNumber` on
/// `users/{uid}`; docs/domain.md, "UFree contact discovery").
///
/// Careful design: the number never leaves the server in a form that can be tried offline. The
/// callable `registerPhoneNumber` normalises the number to E.164 and stores
/// `phone_index/{blindIndex}` → {uid}, the blind index keyed with a server-only secret;
/// `discoverContacts` normalises each address-book entry in the caller's region, counts it against
/// a daily quota per caller (`lookup_quota/{uid}`, in a transaction, so concurrent calls cannot
/// both spend the last lookups; each charge keyed by the invocation, so a charge whose commit
/// landed while its answer was lost is not taken twice when the transaction runs again) and
/// answers only the entries within the quota. Neither collection
/// is readable by clients, and nothing about the number is on the world-readable `users` document.
extension UFreeApp {
    static func phoneIndex(_ blindIndex: String) -> DocumentPath { DocumentPath("phone_index", blindIndex) }
    static func lookupQuota(_ uid: String) -> DocumentPath { DocumentPath("lookup_quota", uid) }

    /// Deploys the contact-discovery callables with a daily quota of `lookupsPerDay` entries per caller.
    public func deployContactDiscovery(lookupsPerDay: Int) {
        precondition(lookupsPerDay >= 1, "a quota of at least one lookup a day")
        // The server's secret: drawn from its own stream, so deploying discovery moves no other draw.
        var keyStream = backend.env.randomStream("ufree-phone-pepper")
        let pepper = keyStream.next() | 1
        backend.functions.callable("registerPhoneNumber") { [self] request in
            try await registerPhoneNumberCallable(request, pepper: pepper)
        }
        // The function instance's module-scope memory (`quota-in-memory`), made only here so no
        // other scenario gains an executor.
        let memory = InstanceMemory(env: backend.env, label: "ufree-functions")
        backend.functions.callable("discoverContacts") { [self] request in
            try await discoverContactsCallable(request, pepper: pepper, lookupsPerDay: lookupsPerDay, memory: memory)
        }
    }

    private func registerPhoneNumberCallable(_ request: CallableRequest, pepper: UInt64) async throws -> Value {
        guard let userId = request.auth?.uid else { throw UFreeError.unauthenticated }
        let raw = request.data["phone"]?.stringValue ?? "", region = request.data["region"]?.stringValue ?? ""
        guard let e164 = UFreePhoneNumber.e164(raw, region: region) else { throw UFreeError.invalidPhoneNumber(raw) }
        let path = Self.phoneIndex(UFreePhoneNumber.blindIndex(e164, pepper: pepper))
        try await backend.firestore.runTransaction { tx in
            let entry = try await tx.get(path)
            if let owner = entry["uid"]?.stringValue {
                if owner == userId { return }
                throw UFreeError.phoneNumberInUse(raw)
            }
            tx.create(path, ["uid": .string(userId), "registeredAt": .timestamp(request.time)])
        }
        return .bool(true)
    }

    private func discoverContactsCallable(_ request: CallableRequest, pepper: UInt64, lookupsPerDay: Int, memory: InstanceMemory) async throws -> Value {
        guard let userId = request.auth?.uid else { throw UFreeError.unauthenticated }
        let region = request.data["region"]?.stringValue ?? ""
        let entries = (request.data["entries"]?.arrayValue ?? []).compactMap(\.stringValue)
        // The entries as the server looks them up: normalised in the caller's region (or, in
        // `contacts-not-normalized`, only stripped to their digits), invalid ones dropped.
        let numbers: [(entry: String, e164: String)] = entries.compactMap { entry in
            if variant == .contactsNotNormalized {
                let digits = entry.filter { $0.isASCII && $0.isNumber }
                return digits.isEmpty ? nil : (entry, "+" + digits)
            }
            return UFreePhoneNumber.e164(entry, region: region).map { (entry, $0) }
        }
        var allowed = numbers.count
        if variant == .quotaInMemory && !numbers.isEmpty {
            let day = request.time.unixNanoseconds / 86_400_000_000_000
            allowed = await memory.takeAcrossAwait("\(userId)/\(day)", amount: numbers.count, limit: lookupsPerDay)
            guard allowed > 0 else { throw UFreeError.lookupQuotaExceeded(userId: userId, perDay: lookupsPerDay) }
        } else if variant != .lookupWithoutQuota && !numbers.isEmpty {
            let day = Int64(request.time.unixNanoseconds / 86_400_000_000_000)
            let charge = backend.firestore.newDocumentId()
            allowed = try await backend.firestore.runTransaction { tx -> Int in
                let quota = try await tx.get(Self.lookupQuota(userId))
                let today = quota["day"]?.intValue == day
                var charges = today ? quota["charges"]?.mapValue ?? [:] : [:]
                if let earlier = charges[charge]?.intValue { return Int(earlier) }  // this call's own, committed before
                let used = today ? Int(quota["count"]?.intValue ?? 0) : 0
                let granted = min(numbers.count, max(0, lookupsPerDay - used))
                guard granted > 0 else { return 0 }
                charges[charge] = .int(Int64(granted))
                tx.set(Self.lookupQuota(userId), ["day": .int(day), "count": .int(Int64(used + granted)), "charges": .map(charges)])
                return granted
            }
            guard allowed > 0 else { throw UFreeError.lookupQuotaExceeded(userId: userId, perDay: lookupsPerDay) }
        }
        var matches: [Value] = []
        for number in numbers.prefix(allowed) {
            let entry = await backend.firestore.get(Self.phoneIndex(UFreePhoneNumber.blindIndex(number.e164, pepper: pepper)))
            if let owner = entry["uid"]?.stringValue, owner != userId {
                matches.append(.map(["entry": .string(number.entry), "uid": .string(owner)]))
            }
        }
        return .map(["matches": .array(matches), "unanswered": .int(Int64(numbers.count - allowed))])
    }

    // MARK: Client side

    func registerPhoneNumber(_ raw: String, region: String, as client: FirestoreClient) async throws(UFreeError) {
        let userId = try uid(client)
        if variant == .unsaltedPhoneHash {
            guard let e164 = UFreePhoneNumber.e164(raw, region: region) else { throw .invalidPhoneNumber(raw) }
            do {
                _ = try await client.updateData(Self.user(userId), ["hashedPhoneNumber": .set(.string(UFreePhoneNumber.publicHash(e164)))])
            } catch { throw .backend(error) }
            return
        }
        do {
            _ = try await client.call("registerPhoneNumber", ["phone": .string(raw), "region": .string(region)])
        } catch { throw UFreeError.wrap(error) }
    }

    func discoverContacts(
        _ entries: [String], region: String, overNetwork: Bool = true, as client: FirestoreClient
    ) async throws(UFreeError) -> UFreeDiscoveryResult {
        let userId = try uid(client)
        if variant == .unsaltedPhoneHash {
            // The seed's design: hash each entry on the device, query users by hashedPhoneNumber.
            var byHash: [String: [String]] = [:]
            for entry in entries {
                guard let e164 = UFreePhoneNumber.e164(entry, region: region) else { continue }
                byHash[UFreePhoneNumber.publicHash(e164), default: []].append(entry)
            }
            let hashes = Set(byHash.keys)
            let users: [DocumentSnapshot]
            do {
                users = try await client.query("users") { hashes.contains($0["hashedPhoneNumber"]?.stringValue ?? "") }
            } catch { throw .backend(error) }
            var matches: [UFreeContactMatch] = []
            for entry in entries {
                guard let e164 = UFreePhoneNumber.e164(entry, region: region) else { continue }
                let hash = UFreePhoneNumber.publicHash(e164)
                if let user = users.first(where: { $0["hashedPhoneNumber"]?.stringValue == hash }), user.id != userId {
                    matches.append(UFreeContactMatch(entry: entry, userId: user.id))
                }
            }
            return UFreeDiscoveryResult(matches: matches, unanswered: 0)
        }
        let value: Value
        do {
            let data: Fields = ["entries": .array(entries.map { .string($0) }), "region": .string(region)]
            // Off the network: the caller has paid one round trip for several pipelined requests.
            value = overNetwork
                ? try await client.call("discoverContacts", data)
                : try await backend.functions.invoke("discoverContacts", data: data, auth: client.auth)
        } catch { throw UFreeError.wrap(error) }
        let matches = (value.mapValue?["matches"]?.arrayValue ?? []).compactMap { match -> UFreeContactMatch? in
            guard let fields = match.mapValue, let entry = fields["entry"]?.stringValue, let uid = fields["uid"]?.stringValue else { return nil }
            return UFreeContactMatch(entry: entry, userId: uid)
        }
        return UFreeDiscoveryResult(matches: matches, unanswered: Int(value.mapValue?["unanswered"]?.intValue ?? 0))
    }
}
