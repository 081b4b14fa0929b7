import Foundation
import SimulatedFirebase

/// One event the emulator posted to the functions host: which trigger, which document, the
/// document after and before the change (a create has no `oldValue`, a delete no `value`), the
/// event id (shared by every trigger one change fires) and the commit time. The body's shape
/// (`{"data": {"value", "oldValue", "updateMask"}, "context": {eventId, timestamp, eventType,
/// resource}}`) is docs/real-firestore.md's, measured against the emulator.
public struct TriggerDelivery: Sendable, Hashable {
    /// The project the event belongs to.
    public let project: String
    /// The trigger's name, as registered.
    public let trigger: String
    /// The event id (`context.eventId`).
    public let eventId: String
    /// The event the trigger was registered for, as posted (a write trigger's events all say
    /// `write`: `change` tells which change it was).
    public let event: EmulatorTrigger.Event
    /// The document.
    public let path: DocumentPath
    /// The document after the change (nil: deleted).
    public let value: RESTDocument?
    /// The document before the change (nil: created).
    public let oldValue: RESTDocument?
    /// The commit time (`context.timestamp`).
    public let timestamp: Timestamp?

    /// Which change the event is, from the documents it carries.
    public enum Change: Sendable, Hashable { case created, updated, deleted }

    /// A create has no `oldValue`, a delete no `value`.
    public var change: Change { oldValue == nil ? .created : value == nil ? .deleted : .updated }

    /// Decodes a posted body for `trigger` of `project`; each problem is an error naming it.
    static func decode(_ body: Data, project: String, trigger: String, client: FirestoreRESTClient) throws(RESTError) -> TriggerDelivery {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw .malformedResponse("a trigger event that is not a JSON object (\(body.count) bytes)")
        }
        let data = object["data"] as? [String: Any] ?? [:]
        guard let context = object["context"] as? [String: Any], let eventId = context["eventId"] as? String,
              let eventType = context["eventType"] as? String, let kind = EmulatorTrigger.Event(eventType: eventType),
              let resource = (context["resource"] as? [String: Any])?["name"] as? String else {
            throw .malformedResponse("a trigger event without context.eventId, a Firestore eventType and resource.name")
        }
        let documents = client.inProject(project)
        let value = try (data["value"] as? [String: Any]).map { (document) throws(RESTError) in try documents.document(document) }
        let oldValue = try (data["oldValue"] as? [String: Any]).map { (document) throws(RESTError) in try documents.document(document) }
        return TriggerDelivery(
            project: project, trigger: trigger, eventId: eventId, event: kind, path: try documents.path(ofName: resource),
            value: value, oldValue: oldValue, timestamp: (context["timestamp"] as? String).flatMap { try? RFC3339.parse($0) })
    }
}
