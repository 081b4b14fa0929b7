/// An email as a Cloud Function hands it to SendGrid.
public struct EmailMessage: Sendable, Hashable {
    public let to: [String]
    public let from: String
    public let subject: String
    public let type: String
    public let body: String

    public init(to: [String], from: String, subject: String, type: String, body: String) {
        self.to = to
        self.from = from
        self.subject = subject
        self.type = type
        self.body = body
    }
}
