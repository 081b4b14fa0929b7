/// What a guided sweep keeps between its phases (and across a resume): where blocks start, each
/// finished block's corpus, and the samples of blind seeds whose block's corpus is not made yet.
package struct GuideRecord: Sendable, Hashable, Codable {
    /// One finished block's corpus.
    package struct Corpus: Sendable, Hashable, Codable {
        /// The block's first seed.
        package var block: UInt64
        /// Its corpus, in the order it was made.
        package var worlds: [World]
    }

    /// The first seed of the whole sweep (blocks count from it).
    package var origin: UInt64
    /// Corpora of finished blocks, by first seed.
    package var corpora: [Corpus] = []
    /// Samples of blind seeds of open blocks.
    package var samples: [GuideSample] = []

    /// A record for a sweep starting at `origin`.
    package init(origin: UInt64) { self.origin = origin }

    /// The corpus of the block starting at `block`, made now from its samples if not made yet.
    package mutating func corpus(block: UInt64) -> [World] {
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
