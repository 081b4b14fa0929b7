import Foundation
@testable import Scenarios
@testable import Timeline
import Testing

/// `rehearse timeline` takes every zone the system's tz database has, aliases included, and
/// refuses abbreviations and POSIX-style names.
@Suite struct CheckInZoneTests {
    /// Every `Area/Location` zone file under /usr/share/zoneinfo (a TZif file).
    static func systemZones() -> [String] {
        let root = "/usr/share/zoneinfo"
        guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
        var zones: [String] = []
        for case let path as String in walk where path.contains("/") && !path.hasPrefix("posix/") && !path.hasPrefix("right/") {
            guard let handle = FileHandle(forReadingAtPath: "\(root)/\(path)"), let head = try? handle.read(upToCount: 4) else { continue }
            if head == Data("TZif".utf8) { zones.append(path) }
        }
        return zones.sorted()
    }

    @Test func everyZoneOfTheSystemDatabaseIsAccepted() throws {
        let zones = Self.systemZones()
        try #require(zones.count > 300, "the system has a tz database (found \(zones.count) zones)")
        let refused = zones.filter { !CheckInEvent.isIANAZone($0) }
        #expect(refused.isEmpty, "\(refused.count) refused: \(refused.prefix(20))")
        #expect(CheckInEvent.isIANAZone("Asia/Kolkata") && CheckInEvent.isIANAZone("Asia/Calcutta") && CheckInEvent.isIANAZone("UTC"))
    }

    @Test(arguments: ["PST", "EST5EDT", "IST", "Mars/Olympus", "America//New_York", "/America", "America/", "posix/America/New_York"])
    func abbreviationsAndUnknownNamesAreRefused(name: String) {
        #expect(!CheckInEvent.isIANAZone(name))
    }
}
