/// The name of a fault kind a run participant injects (`trigger-duplicate`, `network-failure`):
/// the harness counts and compares faults by name and knows none of them. Encoded as its string.
public struct FaultKindName: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The kind's name as reports print it.
    public let rawValue: String

    /// The kind called `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind called `value`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// By name (the order reports list kinds in).
    public static func < (lhs: FaultKindName, rhs: FaultKindName) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name.
    public var description: String { rawValue }

    /// Decodes the bare string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Encodes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
