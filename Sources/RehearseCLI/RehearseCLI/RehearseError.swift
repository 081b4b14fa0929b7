/// Errors the CLI reports on one line, each with its exit code: 2 for bad input, 1 for a failed run,
/// 3 when infrastructure the run depends on failed under it.
package enum RehearseError: Error, CustomStringConvertible {
    /// Input the user can fix: names the input and what is wrong with it.
    case badInput(String)
    /// A run failed (violation, nondeterminism, missed threshold); the report says how to replay it.
    case failed(String)
    /// Something the run depends on failed under it (a real server died mid-run): nothing was judged.
    case infrastructure(String)

    package var description: String {
        switch self {
        case .badInput(let message), .failed(let message), .infrastructure(let message): message
        }
    }

    package var exitCode: Int32 {
        switch self {
        case .badInput: 2
        case .failed: 1
        case .infrastructure: 3
        }
    }
}
