import Domain
import SimulatedFirebase
import Testing

/// Rules' `diff()` compares numbers by value: rewriting 1 as 1.0 changes no key. Each case was a
/// mismatch of the rules differential (a Swift rule compared by type) before it agreed with the
/// emulator.
@Suite struct RulesByValueTests {
    static func update(_ path: DocumentPath, by uid: String, from before: Fields, to after: Fields) -> RuleRequest {
        RuleRequest(auth: AuthContext(uid: uid), operation: .update, path: path, resource: before, data: after, lookup: { _ in nil })
    }

    @Test func anIntRewrittenAsItsDoubleIsNoChange() {
        let stampbook = StampbookApp.securityRules
        #expect(stampbook.allows(Self.update(DocumentPath("users", "dee"), by: "ana",
                                             from: ["followingCount": .int(1), "followerCount": .int(0)], to: ["followingCount": .double(1), "followerCount": .int(1)])))
        #expect(!stampbook.allows(Self.update(DocumentPath("users", "dee"), by: "ana",
                                              from: ["followingCount": .int(1)], to: ["followingCount": .int(2)])))
        let ufree = UFreeApp.securityRules
        #expect(ufree.allows(Self.update(DocumentPath("users", "ann"), by: "ben",
                                         from: ["version": .int(1), "friendIds": .array([])], to: ["version": .double(1), "friendIds": .array(["ben"])])))
        let safeNSound = SafeNSoundApp.securityRules(.careful)
        #expect(safeNSound.allows(Self.update(DocumentPath("users", "ben"), by: "ben",
                                              from: ["userId": "ben", "lastHeartbeat": .double(1_767_225_600)],
                                              to: ["userId": "ben", "lastHeartbeat": .int(1_767_225_600), "name": "Ben"])))
    }

    @Test func aFriendshipIsItsMembersAlone() {
        let ufree = UFreeApp.securityRules
        let pair = DocumentPath("friendships", "ann_ben")
        #expect(ufree.allows(Self.update(pair, by: "ann", from: ["members": .array(["ann", "ben"])], to: ["members": .array(["ann", "ben"]), "state": "friends"])))
        #expect(!ufree.allows(Self.update(pair, by: "cy", from: ["members": .array(["ann", "ben"])], to: ["members": .array(["ann", "cy"])])))
    }
}
