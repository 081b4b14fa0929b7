/// What became of one rules request: allowed, denied by the rules, or another error.
public enum RulesDecision: Sendable, Hashable, CustomStringConvertible {
    /// The request was served.
    case allowed
    /// PERMISSION_DENIED.
    case denied
    /// Any other status (a request the generator meant to be judged by the rules alone).
    case error(String)

    /// From an error status code.
    init(code: String) { self = code == "PERMISSION_DENIED" ? .denied : .error(code) }

    /// `allowed`, `denied` or the status code.
    public var description: String {
        switch self {
        case .allowed: "allowed"
        case .denied: "denied"
        case .error(let code): code
        }
    }
}
