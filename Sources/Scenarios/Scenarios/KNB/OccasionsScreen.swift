import Domain
import Harness
import SimulatedFirebase
import Synchronization

/// What the occasions screen shows, sampled by calendar-sync's monitor: once it has shown
/// occasions, it is never empty while the website lists some (`occasions-stay-shown`). Judged
/// from the website's own pages and the stored collection, not the app's sync; a seed whose page
/// ever listed no occasion is not judged (the app rightly showed none then).
final class OccasionsScreen: Sendable {
    private let website: KNBWebsite
    /// Whether some revision up to each one listed no occasion.
    private let emptyPageBy: [Bool]
    private let shown = Mutex(false)

    init(_ website: KNBWebsite) {
        self.website = website
        var empty = false
        emptyPageBy = (0...website.editTimes.count).map { revision in
            empty = empty || website.occasions(revision: revision).isEmpty
            return empty
        }
    }

    /// One look at the screen now.
    func check(_ app: KNBApp, _ context: ScenarioContext) {
        let stored = app.backend.firestore.query("communityOccasions").count
        let wasShown = shown.withLock { shown in
            defer { shown = shown || stored > 0 }
            return shown
        }
        let revision = website.revision(at: app.backend.env.clock.now)
        guard wasShown, !emptyPageBy[revision] else { return }
        let listed = website.occasions(revision: revision).count
        context.always(CalendarSyncScenario.Check.occasionsStayShown, stored > 0,
                       "the website lists \(listed) occasions and the app's occasions screen is empty (communityOccasions holds none)")
    }
}
