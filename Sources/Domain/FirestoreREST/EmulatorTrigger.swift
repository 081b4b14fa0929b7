/// A Cloud Firestore trigger as the emulator registers one (`--functions_emulator`): its name, the
/// document event and the document pattern (`honors/{honorId}`). The emulator posts each matching
/// change to the functions host (`TriggerHost`) as firebase-tools' functions emulator receives it.
public struct EmulatorTrigger: Sendable, Hashable {
    /// The document event, as the v1 event type names it.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case create, update, delete, write

        /// `providers/cloud.firestore/eventTypes/document.write`.
        public var eventType: String { "providers/cloud.firestore/eventTypes/document.\(rawValue)" }

        /// The event an event type names (nil for another provider's).
        init?(eventType: String) {
            let prefix = "providers/cloud.firestore/eventTypes/document."
            guard eventType.hasPrefix(prefix) else { return nil }
            self.init(rawValue: String(eventType.dropFirst(prefix.count)))
        }
    }

    /// The trigger's name: a function's, letters, digits, `-` and `_` (a URL path segment).
    public let name: String
    /// Which changes fire it.
    public let event: Event
    /// The documents it watches: segments alternate collection and document, a document segment
    /// may be a wildcard (`{id}`); its depth is exact (the emulator matches it so).
    public let document: String

    /// A trigger; a name or pattern the emulator would refuse is an error naming it.
    public init(name: String, event: Event, document: String) throws(RESTError) {
        guard !name.isEmpty, name.count <= 128, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw .badRequest("trigger name \(name.debugDescription): letters, digits, - and _ only, 1 to 128 of them")
        }
        let segments = document.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2, segments.count % 2 == 0, segments.allSatisfy({ !$0.isEmpty }) else {
            throw .badRequest("trigger document \(document.debugDescription): collection/document pairs, e.g. honors/{honorId}")
        }
        self.name = name
        self.event = event
        self.document = document
    }

    /// The registration's JSON body for `client`'s project and database.
    func registration(in client: FirestoreRESTClient) -> [String: Any] {
        ["eventTrigger": [
            "eventType": event.eventType,
            "resource": "\(client.documentsRoot)/\(document)",
            "service": "firestore.googleapis.com",
        ]]
    }
}
