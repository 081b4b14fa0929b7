/// A check-in file `rehearse timeline` cannot replay: names the file, the line and the problem.
public struct CheckInReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// 1-based line (CSV) or entry number (JSON); 0 for the file as a whole.
    public let line: Int
    public let problem: String

    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String { line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)" }
}
