import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase

/// A check-in file `rehearse timeline` cannot replay: names the file, the line, the column and the problem.
public struct CheckInReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file given.
    public let file: String
    /// 1-based line (CSV) or entry number (JSON); 0 for the file as a whole.
    public let line: Int
    /// 1-based character column of the offending field (CSV); 0 when there is none.
    public let column: Int
    /// What is wrong and how to fix it.
    public let problem: String

    /// An error at `line` (and `column`) of `file`.
    public init(file: String, line: Int, column: Int = 0, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `file:line:column: problem` (the position parts only when known), on one line.
    public var description: String {
        let flat = problem.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
        guard line > 0 else { return "\(file): \(flat)" }
        return column > 0 ? "\(file):\(line):\(column): \(flat)" : "\(file):\(line): \(flat)"
    }
}
