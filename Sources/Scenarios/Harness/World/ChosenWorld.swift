/// A world chosen for one seed of a sweep (a guided seed's mutation), as the sweep hands it to
/// its workers.
package struct ChosenWorld: Sendable, Hashable, Codable {
    /// The seed.
    package var seed: UInt64
    /// Its world.
    package var world: World

    /// The world `world` for `seed`.
    package init(seed: UInt64, world: World) {
        self.seed = seed
        self.world = world
    }
}
