import FirebaseHarness
import Harness
import SimulatedFirebase

extension MediaUploadsScenario {
    /// The parameters this scenario reads, as values (a misspelt name does not compile; values are
    /// range-checked once, when the run is prepared).
    /// Someone uploads.
    public var constraints: [ParameterConstraint] {
        [.notAll([Parameter.posters, Parameter.avatarOwners, Parameter.collectors], 0)]
    }

    enum Parameter {
        static let posters = ScenarioParameter(
            "posters", "KNB users posting with images", default: 3, in: 0...20, cost: .linear)
        static let postsPerPoster = ScenarioParameter(
            "postsPerPoster", "posts each KNB poster makes (1 to 4 images each)", default: 2, in: 1...20, cost: .linear)
        static let avatarOwners = ScenarioParameter(
            "avatarOwners", "Inspired users with a public avatar, each on two devices", default: 2, in: 0...10, cost: .linear)
        static let avatarUpdates = ScenarioParameter(
            "avatarUpdates", "avatar updates per owner, from either device (they may overlap)", default: 4, in: 1...20, cost: .linear)
        static let readers = ScenarioParameter(
            "readers", "Inspired users viewing the owners' avatars", default: 3, in: 0...20, cost: .linear)
        static let readsPerReader = ScenarioParameter(
            "readsPerReader", "avatar views per reader", default: 12, in: 1...200, cost: .linear)
        static let collectors = ScenarioParameter(
            "collectors", "Stampbook users collecting stamps with photos", default: 3, in: 0...20, cost: .linear)
        static let collectsPerCollector = ScenarioParameter(
            "collectsPerCollector", "stamps each collector collects", default: 2, in: 1...20, cost: .linear)
        static let photosPerCollect = ScenarioParameter(
            "photosPerCollect", "photos uploaded in parallel per collect", default: 4, in: 1...8, cost: .linear)
        static let doubleTapPercent = ScenarioParameter(
            "doubleTapPercent", "chance a collect with photos is tapped twice at once", default: 20, in: 0...100)
        static let uploadFailurePercent = ScenarioParameter(
            "uploadFailurePercent", "chance an upload fails mid-transfer (storageUploadFailureProbability)", default: 10, in: 0...50)
        static let rulesProbes = ScenarioParameter(
            "rulesProbes", "1: a prober per app tries the requests the Storage rules must refuse or allow", default: 1, in: 0...1)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "workload length (virtual seconds)", default: 30, in: 1...3_600, cost: .linear)
    }
}
