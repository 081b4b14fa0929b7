import SimulatedFirebase

/// Test hooks that open a race window in the username trigger (no-ops in production).
package struct InspiredProbe: Sendable {
    package var beforeUsernameClaim: @Sendable (String) async -> Void
    package var betweenUsernameCheckAndWrite: @Sendable (String) async -> Void

    package init(
        beforeUsernameClaim: @escaping @Sendable (String) async -> Void = { _ in },
        betweenUsernameCheckAndWrite: @escaping @Sendable (String) async -> Void = { _ in }
    ) {
        self.beforeUsernameClaim = beforeUsernameClaim
        self.betweenUsernameCheckAndWrite = betweenUsernameCheckAndWrite
    }
}
