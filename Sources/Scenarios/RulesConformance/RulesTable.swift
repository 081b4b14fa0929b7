import SimulatedFirebase

/// The rules differential's table: per app and operation, requests decided alike (allowed and
/// denied apart), and mismatches documented or not.
public struct RulesTable: Sendable {
    /// One app and operation's counts.
    public struct Row: Sendable, Hashable {
        /// Requests both allowed.
        public var allowed = 0
        /// Requests both denied.
        public var denied = 0
        /// Requests both refused with another status.
        public var otherwise = 0
        /// Mismatches a documented divergence explains.
        public var known = 0
        /// Mismatches nothing documented explains.
        public var undocumented = 0
    }

    /// By app, then operation.
    public private(set) var rows: [String: [RuleOperation: Row]] = [:]
    /// Every mismatch, by app then seed.
    public private(set) var mismatches: [RulesMismatch] = []
    /// Programs run.
    public private(set) var programs = 0

    /// An empty table.
    public init() {}

    /// Adds one program's result.
    public mutating func add(_ result: RulesOracle.Result) {
        programs += 1
        for (operation, decision) in result.agreed {
            switch decision {
            case .allowed: rows[result.app, default: [:]][operation, default: Row()].allowed += 1
            case .denied: rows[result.app, default: [:]][operation, default: Row()].denied += 1
            case .error: rows[result.app, default: [:]][operation, default: Row()].otherwise += 1
            }
        }
        guard let mismatch = result.mismatch else { return }
        mismatches.append(mismatch)
        if mismatch.known == nil {
            rows[result.app, default: [:]][mismatch.request.operation, default: Row()].undocumented += 1
        } else {
            rows[result.app, default: [:]][mismatch.request.operation, default: Row()].known += 1
        }
    }

    /// Mismatches no documented divergence explains.
    public var undocumented: [RulesMismatch] { mismatches.filter { $0.known == nil } }

    /// Requests judged (agreed or not) for `app`.
    public func requests(_ app: String) -> Int {
        (rows[app] ?? [:]).values.reduce(0) { $0 + $1.allowed + $1.denied + $1.otherwise + $1.known + $1.undocumented }
    }

    /// The table as aligned text, one app and operation a line.
    public var text: String {
        let width = max(10, rows.keys.map(\.count).max() ?? 0)
        var lines = ["rules".padding(toLength: width, withPad: " ", startingAt: 0) + " operation  both allowed  both denied  both other  differed (documented)  differed (UNDOCUMENTED)"]
        for app in rows.keys.sorted() {
            for operation in RuleOperation.allCases {
                guard let row = rows[app]?[operation] else { continue }
                lines.append(app.padding(toLength: width, withPad: " ", startingAt: 0) + " " + operation.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + pad(row.allowed, 14) + pad(row.denied, 13) + pad(row.otherwise, 12) + pad(row.known, 23) + pad(row.undocumented, 25))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
