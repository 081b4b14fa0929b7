/// Errors the CLI reports on one line, each with its exit code: 2 for bad input, 1 for a failed run.
package enum RehearseError: Error, CustomStringConvertible {
    /// Input the user can fix: names the input and what is wrong with it.
    case badInput(String)
    /// A run failed (violation, nondeterminism, missed threshold); the report says how to replay it.
    case failed(String)

    package var description: String {
        switch self {
        case .badInput(let message), .failed(let message): message
        }
    }

    package var exitCode: Int32 {
        switch self {
        case .badInput: 2
        case .failed: 1
        }
    }
}
