import SimulatedFirebase

/// The `recordHeartbeat` request body sent by the iOS app.
public struct SafeNSoundHeartbeatRequest: Sendable, Equatable {
    /// Optional; if present it must equal the authenticated uid.
    public var userId: String?
    /// `TimeZone.current.identifier` on the device.
    public var timeZoneIdentifier: String
    /// The device's model name (`deviceInfo.model`).
    public var deviceModel: String

    /// A request body with the given fields.
    public init(userId: String? = nil, timeZoneIdentifier: String, deviceModel: String = "iPhone") {
        self.userId = userId
        self.timeZoneIdentifier = timeZoneIdentifier
        self.deviceModel = deviceModel
    }
}
