/// Every rejection the simulated backend can return, with Firestore/Functions status codes.
///
/// The messages say what was rejected and why, so a scenario report is actionable.
public enum BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Transaction contention or a validation failure at commit (retryable by the SDK).
    case aborted(AbortReason)
    /// A server `create()` (or a client create rule) hit an existing document.
    case alreadyExists(DocumentPath)
    /// An `update` of a missing document.
    case notFound(DocumentPath)
    case failedPrecondition(String)
    /// Security rules rejected a client read or write.
    case permissionDenied(operation: String, path: String)
    /// A callable was invoked without a signed-in user.
    case unauthenticated(String)
    /// The network or the service was unavailable (transient; the request had no effect).
    case unavailable(String)
    /// The client gave up waiting; the request may or may not have taken effect.
    case deadlineExceeded(String)
    case invalidArgument(String)
    /// Rate limited (HTTP 429 from SendGrid, quota from FCM).
    case resourceExhausted(String)
    /// A callable or function name that nothing registered.
    case unknownFunction(String)
    /// A Cloud Storage object that does not exist (Storage's 404 `objectNotFound`).
    case objectNotFound(path: String)
    /// The function was terminated (its timeout, a crash or eviction of its instance): what a
    /// callable's caller gets, and what every admin call of a terminated invocation throws.
    case `internal`(String)

    /// What a function terminated by `termination` answers (INTERNAL; a timeout DEADLINE_EXCEEDED).
    static func terminated(_ function: String, _ termination: Invocation.Termination) -> BackendError {
        switch termination {
        case .timeout: .deadlineExceeded("\(function) ran past its execution timeout and was terminated")
        case .crash: .internal("\(function)'s instance crashed mid-run")
        }
    }

    /// Whether the client SDK's transaction runner retries this error (MODEL_RULES §2).
    public var isRetryableInTransaction: Bool {
        switch self {
        case .aborted, .alreadyExists, .failedPrecondition, .unavailable, .deadlineExceeded, .resourceExhausted:
            return true
        default: return false
        }
    }

    /// Whether the admin SDK's transaction runner retries this error: contention and transient
    /// failures, never a failed precondition (`ALREADY_EXISTS`, `NOT_FOUND`, `FAILED_PRECONDITION`
    /// are answers; nodejs-firestore's `isRetryableTransactionError`).
    public var isRetryableInServerTransaction: Bool {
        switch self {
        case .aborted, .unavailable, .deadlineExceeded, .resourceExhausted: return true
        default: return false
        }
    }

    /// Whether a precondition refused the write (ALREADY_EXISTS, NOT_FOUND, FAILED_PRECONDITION).
    var isPrecondition: Bool {
        switch self {
        case .alreadyExists, .notFound, .failedPrecondition: true
        default: false
        }
    }

    /// The gRPC-style status name (`ABORTED`, `PERMISSION_DENIED`, ...).
    public var code: String {
        switch self {
        case .aborted: return "ABORTED"
        case .alreadyExists: return "ALREADY_EXISTS"
        case .notFound: return "NOT_FOUND"
        case .failedPrecondition: return "FAILED_PRECONDITION"
        case .permissionDenied: return "PERMISSION_DENIED"
        case .unauthenticated: return "UNAUTHENTICATED"
        case .unavailable: return "UNAVAILABLE"
        case .deadlineExceeded: return "DEADLINE_EXCEEDED"
        case .invalidArgument: return "INVALID_ARGUMENT"
        case .resourceExhausted: return "RESOURCE_EXHAUSTED"
        case .unknownFunction: return "NOT_FOUND"
        case .objectNotFound: return "NOT_FOUND"
        case .internal: return "INTERNAL"
        }
    }

    /// The gRPC code and the detail, as the SDK prints them.
    public var description: String {
        switch self {
        case .aborted(let why): return "ABORTED: \(why)"
        case .alreadyExists(let path): return "ALREADY_EXISTS: \(path) exists; use set/update or another id"
        case .notFound(let path): return "NOT_FOUND: \(path) does not exist; create it first"
        case .failedPrecondition(let why): return "FAILED_PRECONDITION: \(why)"
        case .permissionDenied(let op, let path):
            return "PERMISSION_DENIED: security rules reject \(op) on \(path); check the caller's role and the written fields"
        case .unauthenticated(let why): return "UNAUTHENTICATED: \(why); sign in first"
        case .unavailable(let why): return "UNAVAILABLE: \(why); retry later"
        case .deadlineExceeded(let why): return "DEADLINE_EXCEEDED: \(why); the write may have been applied"
        case .invalidArgument(let why): return "INVALID_ARGUMENT: \(why)"
        case .resourceExhausted(let why): return "RESOURCE_EXHAUSTED: \(why); back off and retry"
        case .unknownFunction(let name): return "NOT_FOUND: no function named \(name) is registered"
        case .objectNotFound(let path): return "NOT_FOUND: no Storage object at \(path) (404); it was never uploaded or was deleted"
        case .internal(let why): return "INTERNAL: \(why)"
        }
    }
}
