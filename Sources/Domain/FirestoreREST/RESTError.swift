/// What a call to a Firestore REST server can end in besides an answer.
public enum RESTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with an error status (`ALREADY_EXISTS`, `ABORTED`, …) and its message.
    case status(code: String, httpStatus: Int, message: String)
    /// Nothing answered at the address (refused, reset, timed out, not HTTP).
    case unreachable(String)
    /// The server answered something that is not Firestore's REST API.
    case malformedResponse(String)
    /// A value of a type the simulated Firebase does not model (bytes, references, geo points).
    case unsupportedValue(String)
    /// A request this client refuses to send (a malformed trigger name or pattern), before any I/O.
    case badRequest(String)

    /// The gRPC status name as the SDKs report it (`UNAVAILABLE` when nothing answered).
    public var code: String {
        switch self {
        case .status(let code, _, _): code
        case .unreachable: "UNAVAILABLE"
        case .malformedResponse, .unsupportedValue: "INTERNAL"
        case .badRequest: "INVALID_ARGUMENT"
        }
    }

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .status(let code, let httpStatus, let message): "\(code) (HTTP \(httpStatus)): \(message)"
        case .unreachable(let why): "unreachable: \(why)"
        case .malformedResponse(let why): "not a Firestore REST answer: \(why)"
        case .unsupportedValue(let kind): "a \(kind) field, which the simulated Firebase does not model"
        case .badRequest(let why): why
        }
    }
}
