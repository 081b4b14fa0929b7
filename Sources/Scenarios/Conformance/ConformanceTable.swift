/// The oracle's agreement table: per behaviour, programs that reached it, how many agreed, and
/// how many differed with a documented or an undocumented divergence.
public struct ConformanceTable: Sendable {
    /// One behaviour's counts.
    public struct Row: Sendable, Hashable {
        /// Steps that agreed.
        public var agreed = 0
        /// Steps that differed under a documented divergence.
        public var known = 0
        /// Steps that differed with no documented divergence.
        public var undocumented = 0
    }

    /// By behaviour.
    public private(set) var rows: [String: Row] = [:]
    /// Programs run.
    public private(set) var programs = 0
    /// Every shrunk mismatch, in seed order.
    public private(set) var mismatches: [ConformanceMismatch] = []

    /// An empty table.
    public init() {}

    /// Adds one program's result.
    public mutating func add(_ result: ConformanceOracle.Result) {
        programs += 1
        for behaviour in result.agreed { rows[behaviour, default: Row()].agreed += 1 }
        guard let mismatch = result.mismatch else { return }
        mismatches.append(mismatch)
        for behaviour in Set(mismatch.behaviours) {
            if mismatch.known == nil { rows[behaviour, default: Row()].undocumented += 1 } else { rows[behaviour, default: Row()].known += 1 }
        }
    }

    /// Mismatches no documented divergence explains.
    public var undocumented: [ConformanceMismatch] { mismatches.filter { $0.known == nil } }

    /// Steps that agreed over all steps compared, in percent.
    public var agreementPercent: Double {
        let totals = rows.values.reduce((0, 0)) { ($0.0 + $1.agreed, $0.1 + $1.agreed + $1.known + $1.undocumented) }
        return totals.1 == 0 ? 100 : 100 * Double(totals.0) / Double(totals.1)
    }

    /// The table as aligned text, one behaviour a line.
    public var text: String {
        var lines = ["behaviour                        agreed   differed (documented)   differed (UNDOCUMENTED)"]
        for name in rows.keys.sorted() {
            let row = rows[name]!
            lines.append(name.padding(toLength: 32, withPad: " ", startingAt: 0) + " " + pad(row.agreed, 6) + "   " + pad(row.known, 21) + "   " + pad(row.undocumented, 23))
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
