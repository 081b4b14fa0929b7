import SimulatedFirebase

/// A profile's `privacySettings` map, with the public-profile constraint.
public struct InspiredPrivacySettings: Sendable, Equatable {
    /// Who may see the avatar.
    public enum AvatarPrivacy: String, Sendable, CaseIterable { case `public`, groupsOnly = "groups-only" }
    /// Who may see the joined-communities list.
    public enum GroupsVisibility: String, Sendable, CaseIterable { case `public`, groupsOnly = "groups-only", membersOnly = "members-only" }

    /// Whether anyone signed in may read the profile.
    public var isProfilePublic: Bool
    /// Who sees the avatar.
    public var avatarPrivacy: AvatarPrivacy
    /// Who sees the communities the user joined.
    public var showJoinedGroups: GroupsVisibility

    /// New users: private profile, groups-only avatar, members-only groups.
    public static let defaults = InspiredPrivacySettings(isProfilePublic: false, avatarPrivacy: .groupsOnly, showJoinedGroups: .membersOnly)

    /// Settings with each field given (`isValid` checks the public-profile constraint).
    public init(isProfilePublic: Bool, avatarPrivacy: AvatarPrivacy, showJoinedGroups: GroupsVisibility) {
        self.isProfilePublic = isProfilePublic
        self.avatarPrivacy = avatarPrivacy
        self.showJoinedGroups = showJoinedGroups
    }

    /// Public Profile Constraint: `isProfilePublic` implies `avatarPrivacy == public`.
    public var isValid: Bool { !isProfilePublic || avatarPrivacy == .public }

    var value: Value {
        .map([
            "isProfilePublic": .bool(isProfilePublic), "avatarPrivacy": .string(avatarPrivacy.rawValue),
            "showJoinedGroups": .string(showJoinedGroups.rawValue),
        ])
    }

    /// The settings without the values equal to `defaults`, `avatarPrivacy` always kept (the
    /// variant `privacy-sparse-merge` writes this).
    var sparseValue: Value {
        var fields: Fields = ["avatarPrivacy": .string(avatarPrivacy.rawValue)]
        if isProfilePublic != Self.defaults.isProfilePublic { fields["isProfilePublic"] = .bool(isProfilePublic) }
        if showJoinedGroups != Self.defaults.showJoinedGroups { fields["showJoinedGroups"] = .string(showJoinedGroups.rawValue) }
        return .map(fields)
    }

    /// Whether a stored `privacySettings` value satisfies the constraint (used by the security rules).
    static func isValid(_ value: Value?) -> Bool {
        guard let map = value?.mapValue else { return false }
        guard let avatar = map["avatarPrivacy"]?.stringValue, AvatarPrivacy(rawValue: avatar) != nil else { return false }
        return map["isProfilePublic"]?.boolValue != true || avatar == AvatarPrivacy.public.rawValue
    }
}
