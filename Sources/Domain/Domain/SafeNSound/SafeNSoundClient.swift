import SimulatedFirebase

/// The SafeNSound iOS app of one signed-in user: a check-in calls the `recordHeartbeat` callable
/// over the device's network (so it pays latency and faults, and fails offline) with the device's
/// App Check token when it has one; each action
/// throws `SafeNSoundError` (`.backend` for what the backend or the network refused).
public final class SafeNSoundClient: Sendable {
    /// The signed-in user's id.
    public var uid: String? { firestore.auth?.uid }
    /// The device's view of the backend (its network and auth).
    public let firestore: FirestoreClient
    let functions: Functions

    init(firestore: FirestoreClient, functions: Functions) {
        self.firestore = firestore
        self.functions = functions
    }

    /// Taps "check in": `recordHeartbeat` with the device's time zone; returns the heartbeat time
    /// the server recorded. `overNetwork: false` reaches the function at once, without the
    /// network's latency and faults (a second tap pipelined on the connection the first opened).
    @discardableResult
    public func checkIn(timeZone: String, deviceModel: String = "iPhone", overNetwork: Bool = true) async throws(SafeNSoundError) -> Timestamp {
        let data: Fields = ["timezone": .string(timeZone), "deviceInfo": .map(["model": .string(deviceModel)])]
        let value: Value
        do {
            value = try await functions.invoke(
                SafeNSoundApp.recordHeartbeatName, data: data, auth: firestore.auth, network: overNetwork ? firestore.network : nil,
                appCheck: firestore.hasAppCheckToken)
        } catch { throw .wrap(error) }
        guard let time = value.mapValue?["lastHeartbeat"]?.timestampValue else {
            throw .backend(.invalidArgument("recordHeartbeat answered without lastHeartbeat: \(value)"))
        }
        return time
    }

    /// Settings → daily reminder: writes `dailyReminderEnabled` and `dailyReminderTime` on the
    /// user's own document (the security rules let the owner change them); returns the document
    /// as written. A nil `time` removes the field.
    @discardableResult
    public func setDailyReminder(enabled: Bool, time: SafeNSoundReminderTime?) async throws(SafeNSoundError) -> DocumentSnapshot {
        guard let uid else { throw .unauthenticated }
        do {
            return try await firestore.updateData(DocumentPath("users", uid), [
                "dailyReminderEnabled": .set(.bool(enabled)),
                "dailyReminderTime": time.map { .set(SafeNSoundFirestoreStore.reminderTimeValue($0)) } ?? .delete,
            ])
        } catch { throw .wrap(error) }
    }
}
