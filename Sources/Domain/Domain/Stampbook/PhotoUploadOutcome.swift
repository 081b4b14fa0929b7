import SimulatedFirebase

/// One photo task's result: its index and the attempts it took (0: it failed every attempt).
struct PhotoUploadOutcome: Sendable {
    let index: Int
    let attempts: Int
}
