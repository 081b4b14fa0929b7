import FirestoreREST
import SimulatedFirebase

/// Runs programs on a real Firestore through the REST client: a project of its own per program
/// (so programs never meet), emptied first (an emulator kept running from an earlier process
/// still holds that process's documents under the same ids), over one client's connections, the
/// SDKs' request forms.
struct EmulatorSide: Sendable {
    let client: FirestoreRESTClient

    /// The step outcomes of `program` (in project `project`), then the final state.
    func run(_ program: ConformanceProgram, project: String) async throws(RESTError) -> [ConformanceOutcome] {
        let client = client.inProject(project)
        try await client.resetEmulator()
        var outcomes: [ConformanceOutcome] = []
        var commits: [Timestamp] = []
        for step in program.steps {
            let (outcome, commitTime) = try await run(step, client, commits: commits)
            outcomes.append(outcome)
            if let commitTime { commits.append(commitTime) }
        }
        let final = try await client.batchGet(program.touchedPaths)
        outcomes.append(ConformanceOutcome(code: "final", documents: final.map { ConformanceOutcome.render($0.path, $0.fields) }))
        return outcomes
    }

    /// One step and, for a successful commit, its commit time; an error status is an outcome, a
    /// transport failure is thrown (the run is void). `commits`: the commit times so far.
    func run(_ step: ConformanceStep, _ client: FirestoreRESTClient, commits: [Timestamp]) async throws(RESTError) -> (ConformanceOutcome, Timestamp?) {
        do {
            switch step {
            case .commit(let writes):
                let time = try await client.commit(writes.map { RESTWrite($0.operation, at: $0.path) })
                return (ConformanceOutcome(code: "OK"), time)
            case .get(let path):
                let document = try await client.get(path)
                return (ConformanceOutcome(code: "OK", documents: [ConformanceOutcome.render(path, document.fields)]), nil)
            case .query(let query):
                return (ConformanceOutcome(code: "OK", documents: try await client.runQuery(query).map { ConformanceOutcome.render($0.path, $0.fields) }), nil)
            case .transaction(let reads, let writes):
                return try await transaction(reads: reads, writes: writes, client)
            case .readOnlyTransaction(let reads, let back):
                let transaction = try await client.beginTransaction(readOnly: true, readTime: ConformanceStep.readTime(back, commits: commits))
                let documents = try await client.batchGet(reads, transaction: transaction)
                return (ConformanceOutcome(code: "OK", documents: documents.map { ConformanceOutcome.render($0.path, $0.fields) }), nil)
            }
        } catch {
            if case .status(let code, _, _) = error { return (ConformanceOutcome(code: code), nil) }
            throw error
        }
    }

    func transaction(reads: [DocumentPath], writes: [ConformanceWrite], _ client: FirestoreRESTClient) async throws(RESTError) -> (ConformanceOutcome, Timestamp?) {
        let transaction = try await client.beginTransaction()
        do {
            var documents: [String] = []
            for path in reads { documents.append(ConformanceOutcome.render(path, try await client.get(path, transaction: transaction).fields)) }
            let time = try await client.commit(writes.map { RESTWrite($0.operation, at: $0.path) }, transaction: transaction)
            return (ConformanceOutcome(code: "OK", documents: documents), time)
        } catch {
            try? await client.rollback(transaction)
            throw error
        }
    }
}
