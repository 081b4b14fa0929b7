import Domain
import Foundation
import RehearseCLI
import RulesConformance
import Scenarios

/// The tools' typed values (`zoo`, `timeline`, `bench`, `conformance`), parsed where ArgumentParser
/// reads them, as the core commands' are (`ArgumentValue`).
extension ArgumentValue {
    /// A planted bug of the zoo, by its variant's name.
    static func bug(_ text: String) throws -> BugZoo.Bug {
        guard let bug = BugZoo.bugs.first(where: { $0.variant == text }) else {
            throw Malformed(description: "unknown bug; valid: \(BugZoo.bugs.map(\.variant).joined(separator: ", "))")
        }
        return bug
    }

    /// `bench --only`: comma-separated section names (spaces around a name ignored), in run order.
    static func benchSections(_ text: String) throws -> [BenchCommand.Section] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for name in names where BenchCommand.Section(rawValue: name) == nil {
            throw Malformed(description: "unknown section '\(name)' (known: \(BenchCommand.Section.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return BenchCommand.Section.allCases.filter { names.contains($0.rawValue) }
    }

    /// A SafeNSound design to replay check-ins through.
    static func safeNSoundDesign(_ text: String) throws -> SafeNSoundVariant {
        guard let design = SafeNSoundVariant(rawValue: text) else {
            throw Malformed(description: "not a SafeNSound design; choose one of \(SafeNSoundVariant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return design
    }

    /// `conformance --apps`: comma-separated app names whose rules are held to the real server.
    static func rulesWorlds(_ text: String) throws -> [RulesWorld] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let known = RulesWorld.all.map(\.app)
        for name in names where !known.contains(name) {
            throw Malformed(description: "unknown app '\(name)' (known: \(known.joined(separator: ", ")))")
        }
        return RulesWorld.all.filter { names.contains($0.app) }
    }

    /// A running Firestore emulator's loopback address.
    static func loopbackAddress(_ text: String) throws -> LoopbackAddress {
        guard let address = LoopbackAddress(parsing: text) else {
            throw Malformed(description: "not a loopback HOST:PORT (127.0.0.1:PORT, localhost:PORT or [::1]:PORT)")
        }
        return address
    }
}
