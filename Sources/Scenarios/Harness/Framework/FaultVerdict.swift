/// How a fault kind's observed count stands against what its draws lead one to expect, judged both
/// ways: far fewer means the backend is kinder than it claims; far more means something other than
/// the draws makes it happen, which is fine only when that source is named.
package enum FaultVerdict: Sendable, Hashable, CustomStringConvertible {
    /// No draw: a limit or contention, counted when it happens.
    case counted
    /// Fewer than `FaultObservation.minimumExpected` expected: too few chances to judge.
    case tooFewToJudge
    /// Within `FaultObservation.suppressionSigmas` of the expectation.
    case asExpected
    /// Far fewer than drawn: faults drawn but not delivered (fails a sweep).
    case fewer
    /// Far more than drawn, from a source the backend names.
    case moreExplained(because: String)
    /// Far more than drawn and no other source named: the backend injects more than it claims (fails a sweep).
    case moreUnexplained

    /// True when the verdict fails a sweep.
    package var fails: Bool {
        switch self {
        case .fewer, .moreUnexplained: true
        case .counted, .tooFewToJudge, .asExpected, .moreExplained: false
        }
    }

    /// `as expected`, `more than expected: also …`, …
    package var description: String {
        switch self {
        case .counted: "counted"
        case .tooFewToJudge: "too few chances to judge"
        case .asExpected: "as expected"
        case .fewer: "FEWER than expected: drawn but not delivered"
        case .moreExplained(let because): "more than expected: \(because)"
        case .moreUnexplained: "MORE than expected, from no source the backend names"
        }
    }
}
