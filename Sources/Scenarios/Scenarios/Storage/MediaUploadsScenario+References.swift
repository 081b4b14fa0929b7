import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

extension MediaUploadsScenario {
    /// One document's mention of a Storage object.
    struct Reference: Sendable {
        /// The document (and field) naming it.
        let document: String
        /// The object path it names.
        let path: String
    }

    /// The object path a download URL names: what follows `/o/`, without a `?v=` fingerprint.
    /// Parsed here rather than with the domain's helper, so the checker does not trust the code it checks.
    static func objectPath(fromURL url: String) -> String? {
        guard url.hasPrefix("https://"), let marker = url.range(of: "/o/") else { return nil }
        let rest = url[marker.upperBound...]
        let path = rest.prefix { $0 != "?" }
        return path.isEmpty ? nil : String(path)
    }

    /// KNB: each post's `mediaItems[].storagePath` and the path its `downloadURL` names.
    static func knbReferences(_ backend: Backend) -> [Reference] {
        var references: [Reference] = []
        for post in backend.firestore.query("social_posts") {
            for item in post["mediaItems"]?.arrayValue ?? [] {
                let media = item.mapValue ?? [:]
                if let path = media["storagePath"]?.stringValue { references.append(Reference(document: "social_posts/\(post.id) storagePath", path: path)) }
                if let path = media["downloadURL"]?.stringValue.flatMap(objectPath(fromURL:)) {
                    references.append(Reference(document: "social_posts/\(post.id) downloadURL", path: path))
                }
            }
        }
        return references
    }

    /// Inspired: each profile's `thumbnailUrl` and `profilePictureUrl` (Storage URLs only).
    static func inspiredReferences(_ backend: Backend) -> [Reference] {
        var references: [Reference] = []
        for user in backend.firestore.query("users") {
            for field in ["thumbnailUrl", "profilePictureUrl"] {
                if let path = user[field]?.stringValue.flatMap(objectPath(fromURL:)) {
                    references.append(Reference(document: "users/\(user.id) \(field)", path: path))
                }
            }
        }
        return references
    }

    /// Stampbook: `photoUrls` of each collector's collected records and of every feed post.
    static func stampbookReferences(_ backend: Backend, users: [String]) -> [Reference] {
        var references: [Reference] = []
        func add(_ snapshot: DocumentSnapshot, _ name: String) {
            for url in snapshot["photoUrls"]?.arrayValue ?? [] {
                if let path = url.stringValue.flatMap(objectPath(fromURL:)) { references.append(Reference(document: name, path: path)) }
            }
        }
        for uid in users {
            for record in backend.firestore.query("users/\(uid)/collected_stamps") { add(record, "users/\(uid)/collected_stamps/\(record.id)") }
        }
        for post in backend.firestore.query("feed_posts") { add(post, "feed_posts/\(post.id)") }
        return references
    }

    /// No dangling URL (every reference exists) and no orphaned object (every object referenced),
    /// judged on the bucket's objects once the run is idle.
    static func checkReferences(_ app: String, _ backend: Backend, _ references: [Reference], _ context: ScenarioContext) {
        let objects = backend.storage.objects
        let stored = Set(objects.map(\.path)), named = Set(references.map(\.path))
        context.eventually(Check.noDanglingURL, true, "")
        for reference in references {
            context.eventually(Check.noDanglingURL, stored.contains(reference.path), "\(app): \(reference.document) names \(reference.path), which does not exist")
        }
        context.eventually(Check.noOrphanedObject, true, "")
        for object in objects {
            context.eventually(Check.noOrphanedObject, named.contains(object.path),
                               "\(app): \(object.path) (generation \(object.generation), \(object.sizeBytes) bytes) is named by no document")
        }
    }
}
