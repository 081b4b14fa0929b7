import SimulatedFirebase

/// One device's like/unlike request de-duplication (LikeManager): while a request for a post is
/// in flight, another tap on the same post joins it instead of sending a second request.
actor StampbookLikeRequests: DomainActor {
    nonisolated let executor: any SerialExecutor
    private var inFlight: [String: Task<Void, any Error>] = [:]

    init(userId: String, environment: DomainEnvironment) {
        executor = environment.makeExecutor(label: "stampbook/likes/\(userId)")
    }

    /// Runs `request` for `postId` unless one is in flight, in which case waits for that one.
    /// Returns true if this call sent the request, false if it joined an earlier one.
    func run(postId: String, _ request: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        if let existing = inFlight[postId] {
            try await existing.value
            return false
        }
        let task = Task { try await request() }
        inFlight[postId] = task
        defer { inFlight[postId] = nil }
        try await task.value
        return true
    }
}
