/// What a guided sweep keeps between its phases (and across a resume): where blocks start, each
/// finished block's corpus, and the samples of blind seeds whose block's corpus is not made yet.
public struct GuideRecord: Sendable, Hashable, Codable {
    /// One finished block's corpus.
    public struct Corpus: Sendable, Hashable, Codable {
        /// The block's first seed.
        public var block: UInt64
        /// Its corpus, in the order it was made.
        public var worlds: [World]
    }

    /// The first seed of the whole sweep (blocks count from it).
    public var origin: UInt64
    /// Corpora of finished blocks, by first seed.
    public var corpora: [Corpus] = []
    /// Samples of blind seeds of open blocks.
    public var samples: [GuideSample] = []

    /// A record for a sweep starting at `origin`.
    public init(origin: UInt64) { self.origin = origin }

    /// The corpus of the block starting at `block`, made now from its samples if not made yet.
    public mutating func corpus(block: UInt64) -> [World] {
        if let made = corpora.first(where: { $0.block == block }) { return made.worlds }
        let range = SeedRange(low: block, high: block &+ WorldGuide.blockSize)
        let mine = samples.filter { $0.seed >= range.low && $0.seed < range.high }
        let worlds = WorldGuide.corpus(mine)
        corpora.append(Corpus(block: block, worlds: worlds))
        corpora.sort { $0.block < $1.block }
        samples.removeAll { $0.seed >= range.low && $0.seed < range.high }
        return worlds
    }
}
