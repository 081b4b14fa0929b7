/// An email as a Cloud Function hands it to SendGrid.
public struct EmailMessage: Sendable, Hashable {
    /// The recipients.
    public let to: [String]
    /// The sender address.
    public let from: String
    /// The subject line.
    public let subject: String
    /// The app's kind of email (e.g. "KIDDUSH_BOOKED"), for checkers.
    public let type: String
    /// The text body.
    public let body: String

    /// An email with every field given.
    public init(to: [String], from: String, subject: String, type: String, body: String) {
        self.to = to
        self.from = from
        self.subject = subject
        self.type = type
        self.body = body
    }
}
