/// A k6-style latency threshold such as `placeBid.p99<2s`: a missed threshold fails the run.
public struct Threshold: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The statistics a threshold can name.
    public enum Statistic: String, Sendable, Hashable, Codable, CaseIterable {
        case p50, p90, p99, p999 = "p99.9", max, mean
    }
    /// `<` or `<=`.
    public enum Comparison: String, Sendable, Hashable, Codable { case less = "<", lessOrEqual = "<=" }

    /// The operation it constrains.
    public let operation: String
    /// The statistic compared.
    public let statistic: Statistic
    /// How it is compared with the limit.
    public let comparison: Comparison
    /// The limit.
    public let limitNanoseconds: UInt64
    /// The threshold as given.
    public let expression: String

    /// The threshold as given.
    public var description: String { expression }

    /// Parses `operation.stat<value[unit]` or `<=`; units ns, us, ms, s, m, h (default ms).
    package init(parsing text: String) throws(ScenarioError) {
        let trimmed = text.filter { !$0.isWhitespace }
        let comparison: Comparison
        let sides: [Substring]
        if let range = trimmed.range(of: "<=") {
            comparison = .lessOrEqual
            sides = [trimmed[..<range.lowerBound], trimmed[range.upperBound...]]
        } else {
            comparison = .less
            sides = trimmed.split(separator: "<", omittingEmptySubsequences: false)
        }
        guard sides.count == 2 else { throw .malformedThreshold(text, reason: "needs one < or <=") }
        let left = String(sides[0])
        guard let dot = left.firstIndex(of: "."), dot != left.startIndex else {
            throw .malformedThreshold(text, reason: "left side must be operation.statistic")
        }
        let statisticName = String(left[left.index(after: dot)...])
        guard let statistic = Statistic(rawValue: statisticName) else {
            throw .malformedThreshold(text, reason: "statistic must be one of \(Statistic.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let right = String(sides[1])
        let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        var number = right
        var scale = 1e6
        for (suffix, factor) in units where right.hasSuffix(suffix) {
            let candidate = String(right.dropLast(suffix.count))
            if Double(candidate) != nil { number = candidate; scale = factor; break }
        }
        guard let value = Double(number), value >= 0, value.isFinite else {
            throw .malformedThreshold(text, reason: "right side must be a number with unit ns, us, ms, s, m or h")
        }
        // Checked in floating point before converting: UInt64(1e300) would trap.
        let nanoseconds = value * scale
        guard nanoseconds <= Double(ScenarioLimits.maxThresholdNanoseconds) else {
            throw .malformedThreshold(text, reason: "the limit exceeds one year (ScenarioLimits.maxThresholdNanoseconds)")
        }
        let operation = String(left[..<dot])
        guard !operation.isEmpty else { throw .malformedThreshold(text, reason: "the operation name is empty") }
        self.operation = operation
        self.statistic = statistic
        self.comparison = comparison
        self.limitNanoseconds = UInt64(nanoseconds)
        self.expression = trimmed
    }

    /// Whether `observedNanoseconds` meets the threshold.
    package func isMet(by observedNanoseconds: UInt64) -> Bool {
        switch comparison {
        case .less: observedNanoseconds < limitNanoseconds
        case .lessOrEqual: observedNanoseconds <= limitNanoseconds
        }
    }
}
