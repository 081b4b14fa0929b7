import Foundation
import SimulatedFirebase

/// Runs programs on the simulated Firebase: a fresh project per program with no faults and no
/// latency (what is compared is semantics, not adversity), on the real runtime's executors.
enum SimulatedSide {
    /// The step outcomes of `program`, then the final state of every document it named.
    static func run(_ program: ConformanceProgram) async -> [ConformanceOutcome] {
        let backend = Backend(env: .realRuntime(seed: program.seed, epochUnixNanoseconds: 1_767_225_600_000_000_000), faults: .none)
        defer { backend.terminate() }
        backend.firestore.keepVersions()  // read times reach back to the program's first commit
        var outcomes: [ConformanceOutcome] = []
        var commits: [Timestamp] = []
        for step in program.steps {
            let outcome = await run(step, backend.firestore, commits: commits)
            outcomes.append(outcome)
            if step.writes != nil, outcome.code == "OK" {
                // The instant after this commit, before the next (a read time sees it and no later one).
                commits.append(backend.firestore.env.clock.now)
                try? await backend.firestore.env.clock.sleep(for: .microseconds(1))
            }
        }
        outcomes.append(await finalState(program, backend.firestore))
        return outcomes
    }

    static func run(_ step: ConformanceStep, _ firestore: Firestore, commits: [Timestamp]) async -> ConformanceOutcome {
        do {
            switch step {
            case .commit(let writes):
                try await firestore.commitBatch(writes.map { ($0.path, $0.operation) })
                return ConformanceOutcome(code: "OK")
            case .get(let path):
                let snapshot = await firestore.get(path)
                return ConformanceOutcome(code: "OK", documents: [ConformanceOutcome.render(path, snapshot.fields)])
            case .query(let query):
                return ConformanceOutcome(code: "OK", documents: try firestore.query(query).map { ConformanceOutcome.render($0.path, $0.fields) })
            case .transaction(let reads, let writes):
                let documents = try await firestore.runTransaction { transaction in
                    var documents: [String] = []
                    for path in reads { documents.append(ConformanceOutcome.render(path, try await transaction.get(path).fields)) }
                    for write in writes { buffer(write, in: transaction) }
                    return documents
                }
                return ConformanceOutcome(code: "OK", documents: documents)
            case .readOnlyTransaction(let reads, let back):
                let documents = try await firestore.runReadOnlyTransaction(readTime: ConformanceStep.readTime(back, commits: commits)) { transaction in
                    try await transaction.getAll(reads).map { ConformanceOutcome.render($0.path, $0.fields) }
                }
                return ConformanceOutcome(code: "OK", documents: documents)
            }
        } catch let error as BackendError {
            return ConformanceOutcome(code: error.code)
        } catch {
            return ConformanceOutcome(code: "UNKNOWN: \(error)")
        }
    }

    static func buffer(_ write: ConformanceWrite, in transaction: Transaction) {
        switch write.operation {
        case .create(let fields): transaction.create(write.path, fields)
        case .set(let fields): transaction.set(write.path, fields)
        case .merge(let updates): transaction.merge(write.path, updates)
        case .update(let updates): transaction.update(write.path, updates)
        case .delete: transaction.delete(write.path)
        }
    }

    static func finalState(_ program: ConformanceProgram, _ firestore: Firestore) async -> ConformanceOutcome {
        var documents: [String] = []
        for path in program.touchedPaths { documents.append(ConformanceOutcome.render(path, await firestore.get(path).fields)) }
        return ConformanceOutcome(code: "final", documents: documents)
    }
}

extension ConformanceProgram {
    /// Every document a step names that a read may name, in path order: the final state compared.
    var touchedPaths: [DocumentPath] {
        var paths = Set<DocumentPath>()
        for step in steps {
            switch step {
            case .commit(let writes): writes.forEach { paths.insert($0.path) }
            case .get(let path): paths.insert(path)
            case .query: break
            case .transaction(let reads, let writes): reads.forEach { paths.insert($0) }; writes.forEach { paths.insert($0.path) }
            case .readOnlyTransaction(let reads, _): reads.forEach { paths.insert($0) }
            }
        }
        return paths.filter { !ConformanceGenerator.refusedIds.contains($0.id) }.sorted()
    }
}
