/// The statistical predicate of the backend conformance suite: is an observed count of
/// successes in `trials` Bernoulli trials consistent with success probability `probability`?
///
/// Normal approximation to the binomial: `|observed − n·p| ≤ sigmas · √(n·p·(1−p))`. With
/// `n·p·(1−p) ≥ 9` (checked by `isApproximationSound`) a 4-sigma band wrongly rejects a correct
/// backend with probability about 6·10⁻⁵ per assertion (two-sided normal tail; Chernoff bounds
/// give the same order for these sizes). Every test runs at a fixed seed, so a given build either
/// passes or fails; the bound says how unlikely it was to pick a failing seed by bad luck.
/// For p = 0 or 1 the band has zero width: only 0 (or n) successes are consistent.
enum BinomialBound {
    /// True when `observed` successes out of `trials` lie within `sigmas` standard deviations
    /// of the mean `trials × probability`.
    static func contains(observed: Int, trials: Int, probability: Double, sigmas: Double = 4) -> Bool {
        precondition(trials > 0 && (0...trials).contains(observed), "observed must be a count out of trials")
        precondition((0...1).contains(probability), "probability must be in [0, 1]")
        let n = Double(trials)
        let mean = n * probability
        let deviation = (n * probability * (1 - probability)).squareRoot()
        return abs(Double(observed) - mean) <= sigmas * deviation
    }

    /// Whether the normal approximation behind `contains` is sound at this size (n·p·(1−p) ≥ 9).
    static func isApproximationSound(trials: Int, probability: Double) -> Bool {
        Double(trials) * probability * (1 - probability) >= 9
    }

    /// The band `contains` accepts, for failure messages: "[lower, upper]" in counts.
    static func band(trials: Int, probability: Double, sigmas: Double = 4) -> String {
        let n = Double(trials)
        let deviation = (n * probability * (1 - probability)).squareRoot()
        let lower = max(0, n * probability - sigmas * deviation), upper = min(n, n * probability + sigmas * deviation)
        return "[\(Int(lower.rounded(.up))), \(Int(upper.rounded(.down)))] of \(trials) at p = \(probability)"
    }
}
