/// A rules differential run: for each world, `requests` requests as programs of
/// `requestsPerProgram` (the last one shorter), seeds from `firstSeed`.
public struct RulesRun: Sendable {
    /// One program to run.
    public struct Program: Sendable {
        /// The app's world.
        public var world: RulesWorld
        /// Its seed.
        public var seed: UInt64
        /// Requests in it.
        public var requests: Int
    }

    /// Requests per program: enough for writes to build on each other, few enough that a
    /// mismatch is read in one screen.
    public static let requestsPerProgram = 25

    /// The programs, world by world.
    public let programs: [Program]

    /// The programs of `requests` requests per world.
    public init(worlds: [RulesWorld], requests: Int, firstSeed: UInt64) {
        var programs: [Program] = []
        for world in worlds {
            var left = requests, seed = firstSeed
            while left > 0 {
                programs.append(Program(world: world, seed: seed, requests: min(left, Self.requestsPerProgram)))
                left -= Self.requestsPerProgram
                seed += 1
            }
        }
        self.programs = programs
    }
}
