@testable import Harness
import Testing

/// A fault kind's count is judged against its expectation both ways: far below, the backend is
/// kinder than it claims; far above, something besides the draws makes it happen, which passes only
/// when that source is named. Kinds that are no draw are shown as counted, never as 0 ± 0.
@Suite struct FaultVerdictTests {
    /// `observed` occurrences against `chances` draws of probability `p`.
    static func observation(_ observed: Int, chances: Int, p: Double, otherSources: String? = nil) -> FaultObservation {
        let expected = UInt64((Double(chances) * p * 1e9).rounded())
        let variance = UInt64((Double(chances) * p * (1 - p) * 1e9).rounded())
        return FaultObservation(kind: FaultKindName(rawValue: "trigger-reorder"), opportunities: chances,
                                expectedBillionths: expected, varianceBillionths: variance, observed: observed, otherSources: otherSources)
    }

    @Test func aCountNearItsExpectationIsAsExpected() {
        // 1,000 chances at 10 %: 100 ± 9.5 expected.
        for observed in [70, 100, 130] { #expect(Self.observation(observed, chances: 1000, p: 0.1).verdict == .asExpected, "\(observed)") }
    }

    @Test func farFewerThanDrawnFails() {
        let verdict = Self.observation(55, chances: 1000, p: 0.1).verdict
        #expect(verdict == .fewer && verdict.fails)
        #expect(Self.observation(0, chances: 100, p: 0.1).verdict == .fewer, "never happening although 10 were expected")
    }

    @Test func farMoreThanDrawnFailsUnlessItsSourceIsNamed() {
        let unexplained = Self.observation(145, chances: 1000, p: 0.1)
        #expect(unexplained.verdict == .moreUnexplained && unexplained.isOff)
        #expect(unexplained.summary.contains("MORE than expected"), "\(unexplained.summary)")
        let explained = Self.observation(145, chances: 1000, p: 0.1, otherSources: "chains of close writes")
        #expect(explained.verdict == .moreExplained(because: "chains of close writes") && !explained.isOff)
        #expect(explained.summary.hasSuffix("more than expected: chains of close writes"), "\(explained.summary)")
    }

    @Test func kindsWithoutDrawsAreCountedNotJudged() {
        let counted = FaultObservation(kind: FaultKindName(rawValue: "lock-wait"), opportunities: 0, expectedBillionths: 0, varianceBillionths: 0, observed: 2399)
        #expect(counted.verdict == .counted && !counted.isOff)
        #expect(counted.summary == "lock-wait 2399 (counted, no expectation)")
        #expect(!counted.summary.contains("0.0 ± 0.0"))
        #expect(Self.observation(9, chances: 30, p: 0.1).verdict == .tooFewToJudge, "3 expected: too few chances to judge either way")
    }

    @Test func mergingKeepsTheNamedSource() {
        var merged = Self.observation(10, chances: 100, p: 0.1)
        merged.add(Self.observation(40, chances: 100, p: 0.1, otherSources: "chains"))
        #expect(merged.otherSources == "chains" && merged.observed == 50 && merged.opportunities == 200)
    }
}
