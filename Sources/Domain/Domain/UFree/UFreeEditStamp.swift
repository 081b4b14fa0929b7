import SimulatedFirebase

/// When and on which device a day's status was edited: the order the careful rules keep
/// (newest edit wins; the device label breaks ties between two edits in one instant).
public struct UFreeEditStamp: Sendable, Hashable, Comparable {
    /// Virtual time of the edit on the device, in nanoseconds since the epoch.
    public let editedAt: Int64
    /// The device that made the edit ("u0/phone").
    public let editor: String

    /// A stamp.
    public init(editedAt: Int64, editor: String) {
        self.editedAt = editedAt
        self.editor = editor
    }

    /// The stamp stored in a day's fields, nil if it has none (days written without a device).
    public init?(_ fields: Fields?) {
        guard let editedAt = fields?["editedAt"]?.intValue, let editor = fields?["editor"]?.stringValue else { return nil }
        self.init(editedAt: editedAt, editor: editor)
    }

    /// Older first; ties by device label.
    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.editedAt, lhs.editor) < (rhs.editedAt, rhs.editor) }
}
