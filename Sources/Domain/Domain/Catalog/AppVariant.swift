import SimulatedFirebase

/// The one variant style of the five apps: an enum of designs, `careful` the default, one
/// selected per app (`XApp(backend:variant:)`), each other case one literal, flawed reading of
/// the app's seed, selected at run time by its kebab-case raw value.
public protocol AppVariant: RawRepresentable, CaseIterable, Hashable, Sendable, Codable
where RawValue == String, AllCases == [Self] {
    /// The careful design (the default).
    static var careful: Self { get }
    /// The app's name in `AppVariantCatalog` ("knb", "ufree", …).
    static var app: String { get }
    /// One sentence on what this variant gets wrong (for `careful`, what it guarantees).
    var summary: String { get }
}

extension AppVariant {
    /// The variant called `name` (nil: careful), or a typed error listing the valid names.
    public static func named(_ name: String?) throws(AppVariantError) -> Self {
        guard let name else { return .careful }
        guard let variant = Self(rawValue: name) else {
            throw AppVariantError(app: app, name: name, valid: allCases.map(\.rawValue))
        }
        return variant
    }
}

/// An unknown variant name for one app.
public struct AppVariantError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The app ("knb", …).
    public let app: String
    /// The name that matched no variant.
    public let name: String
    /// Every valid name, in declaration order.
    public let valid: [String]

    /// One line naming the app, the unknown name and the valid ones.
    public var description: String { "unknown \(app) variant \(name); valid: \(valid.joined(separator: ", "))" }
}
