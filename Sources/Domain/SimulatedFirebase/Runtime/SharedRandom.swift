import Synchronization

/// One named random stream shared by several actors, drawn under a short lock.
///
/// Under the simulator only one job runs at a time, so draws happen in the (seeded) order the
/// simulator chose; the lock only matters on the real runtime. Never held across an await.
package final class SharedRandom: Sendable {
    private let generator: Mutex<any RandomNumberGenerator>

    package init(_ env: DomainEnvironment, stream name: String) {
        generator = Mutex(env.randomStream(name))
    }

    package func chance(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return generator.withLock { $0.chance(probability) }
    }

    package func unitInterval() -> Double { generator.withLock { $0.unitInterval() } }

    package func sample(_ model: LatencyModel) -> Duration {
        if model == .zero { return .zero }
        return generator.withLock { $0.sample(model) }
    }

    /// Uniform in [0, max].
    package func duration(upTo max: Duration) -> Duration {
        if max <= .zero { return .zero }
        return generator.withLock { g in .nanoseconds(g.int64(in: 0...max.nanoseconds)) }
    }

    /// A Firestore-style 20-character auto id.
    package func autoId() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return generator.withLock { g in
            String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &g)] })
        }
    }
}

extension RandomNumberGenerator {
    mutating func sample(_ model: LatencyModel) -> Duration { model.sample(using: &self) }
}
