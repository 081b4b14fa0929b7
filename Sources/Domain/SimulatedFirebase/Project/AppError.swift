/// The one error shape of the five apps: each app's client throws its own `…Error`, whose
/// `backend` case carries the `BackendError` (rules, contention, network) the request met, so a
/// caller's retry policy finds the transient error the same way for every app.
public protocol AppError: Error, Sendable {
    /// The backend error this error wraps, nil for the app's own (business) refusals.
    var backendError: BackendError? { get }
    /// Wraps a backend error.
    static func backend(_ error: BackendError) -> Self
}

extension AppError {
    /// `error` as this app's error: the app's own errors pass through, a `BackendError` becomes
    /// `.backend`, anything else (a bug) becomes `.backend(.invalidArgument)` naming it.
    package static func wrap(_ error: any Error) -> Self {
        if let error = error as? Self { return error }
        if let error = error as? BackendError { return .backend(error) }
        return .backend(.invalidArgument("unexpected error \(error)"))
    }
}

extension BackendError {
    /// The backend error inside `error`: `error` itself, or the one an app error wraps; nil for an
    /// app's business refusal (what a client retry policy looks at).
    public static func inside(_ error: any Error) -> BackendError? {
        if let error = error as? BackendError { return error }
        return (error as? any AppError)?.backendError
    }
}
