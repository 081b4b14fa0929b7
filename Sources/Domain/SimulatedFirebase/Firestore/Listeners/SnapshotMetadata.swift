/// What a device snapshot says about where its data came from (the SDKs' `SnapshotMetadata`;
/// MODEL_RULES §18–19, docs/domain.md "Listeners").
public struct SnapshotMetadata: Sendable, Hashable {
    /// The listener's connection is down: the data is the device's copy, possibly stale.
    public let isFromCache: Bool
    /// The data includes this device's writes the server has not acknowledged yet (shown at once
    /// by latency compensation; rolled back if the server refuses them).
    public let hasPendingWrites: Bool

    /// Metadata with the given flags.
    public init(isFromCache: Bool, hasPendingWrites: Bool) {
        self.isFromCache = isFromCache
        self.hasPendingWrites = hasPendingWrites
    }
}
