/// The `recordHeartbeat` request body sent by the iOS app.
public struct SafeNSoundHeartbeatRequest: Sendable, Equatable {
    /// Optional; if present it must equal the authenticated uid.
    public var userId: String?
    /// `TimeZone.current.identifier` on the device.
    public var timeZoneIdentifier: String
    public var deviceModel: String

    public init(userId: String? = nil, timeZoneIdentifier: String, deviceModel: String = "iPhone") {
        self.userId = userId
        self.timeZoneIdentifier = timeZoneIdentifier
        self.deviceModel = deviceModel
    }
}
