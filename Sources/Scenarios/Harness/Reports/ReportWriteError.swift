/// A report file could not be written.
public enum ReportWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    /// "cannot write <path>: <reason>".
    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
