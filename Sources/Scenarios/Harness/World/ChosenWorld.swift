/// A world chosen for one seed of a sweep (a guided seed's mutation), as the sweep hands it to
/// its workers.
public struct ChosenWorld: Sendable, Hashable, Codable {
    /// The seed.
    public var seed: UInt64
    /// Its world.
    public var world: World

    /// The world `world` for `seed`.
    public init(seed: UInt64, world: World) {
        self.seed = seed
        self.world = world
    }
}
