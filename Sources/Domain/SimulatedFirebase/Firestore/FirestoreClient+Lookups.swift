extension FirestoreClient {
    /// Reads `path`, retrying transient failures (UNAVAILABLE, DEADLINE_EXCEEDED) up to `attempts`
    /// times 1 s, 2 s, … apart: the look an app takes before cleaning up after an ambiguous write
    /// (did my commit land?). Nil when every attempt failed or the rules refused.
    package func getRetrying(_ path: DocumentPath, attempts: Int = 5) async -> DocumentSnapshot? {
        precondition(attempts >= 1, "a read needs at least one attempt")
        for attempt in 1...attempts {
            do {
                return try await get(path)
            } catch .unavailable, .deadlineExceeded {
                if attempt < attempts { try? await backend.env.clock.sleep(for: .seconds(attempt)) }
            } catch {
                return nil
            }
        }
        return nil
    }
}
