/// The failure artifact a report's run replayed, and what shrinking had removed from it.
public struct ReplaySource: Sendable, Hashable, Codable {
    /// The artifact's path as given to `rehearse replay`.
    public var artifact: String
    /// Present when the artifact was shrunk.
    public var shrink: FailureArtifact.ShrinkSummary?

    /// The artifact at `artifact`, with its shrink summary if shrunk.
    package init(artifact: String, shrink: FailureArtifact.ShrinkSummary?) {
        self.artifact = artifact
        self.shrink = shrink
    }
}
