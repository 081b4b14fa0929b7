import Testing

/// The conformance suite's predicate, tested on both sides: it accepts counts at the rate and
/// rejects counts of a kinder (or harsher) backend.
@Suite struct BinomialBoundTests {
    @Test func acceptsCountsNearTheMeanAndRejectsCountsFarFromIt() {
        // n = 10,000, p = 0.005: mean 50, sd 7.05, 4σ band [21.8, 78.2].
        #expect(BinomialBound.contains(observed: 50, trials: 10_000, probability: 0.005))
        #expect(BinomialBound.contains(observed: 22, trials: 10_000, probability: 0.005))
        #expect(BinomialBound.contains(observed: 78, trials: 10_000, probability: 0.005))
        #expect(!BinomialBound.contains(observed: 21, trials: 10_000, probability: 0.005))
        #expect(!BinomialBound.contains(observed: 79, trials: 10_000, probability: 0.005))
        #expect(!BinomialBound.contains(observed: 0, trials: 10_000, probability: 0.005), "a backend without duplicates")
        #expect(!BinomialBound.contains(observed: 500, trials: 10_000, probability: 0.005), "a backend at the stress rate")
        // Fewer sigmas, narrower band.
        #expect(BinomialBound.contains(observed: 60, trials: 10_000, probability: 0.005, sigmas: 2))
        #expect(!BinomialBound.contains(observed: 65, trials: 10_000, probability: 0.005, sigmas: 2))
    }

    @Test func certainRatesAcceptOnlyTheCertainCount() {
        #expect(BinomialBound.contains(observed: 0, trials: 100, probability: 0))
        #expect(!BinomialBound.contains(observed: 1, trials: 100, probability: 0))
        #expect(BinomialBound.contains(observed: 100, trials: 100, probability: 1))
        #expect(!BinomialBound.contains(observed: 99, trials: 100, probability: 1))
    }

    @Test func approximationNeedsEnoughExpectedSuccesses() {
        #expect(BinomialBound.isApproximationSound(trials: 10_000, probability: 0.005))  // 49.75
        #expect(!BinomialBound.isApproximationSound(trials: 1_000, probability: 0.005))  // 4.98
        #expect(BinomialBound.band(trials: 10_000, probability: 0.005) == "[22, 78] of 10000 at p = 0.005")
    }
}
