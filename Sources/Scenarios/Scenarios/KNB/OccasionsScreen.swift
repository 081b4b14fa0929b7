import Domain
import Harness
import SimulatedFirebase
import Synchronization

/// The occasions screen as a checker's own listener on `communityOccasions` draws it (every
/// committed change, in order): once it has shown occasions, it is never empty while the website
/// lists some (`occasions-stay-shown`). Judged from the website's own pages and the listener's
/// copy, not the app's sync; a seed whose page ever listed no occasion is not judged (the app
/// rightly showed none then).
final class OccasionsScreen: Sendable {
    private let website: KNBWebsite
    /// Whether some revision up to each one listed no occasion.
    private let emptyPageBy: [Bool]
    private let state = Mutex<(shown: Set<String>, everShown: Bool)>(([], false))

    init(_ website: KNBWebsite) {
        self.website = website
        var empty = false
        emptyPageBy = (0...website.editTimes.count).map { revision in
            empty = empty || website.occasions(revision: revision).isEmpty
            return empty
        }
    }

    /// Starts the checker's listener; remove it when the run ends.
    func watch(_ app: KNBApp, _ context: ScenarioContext) -> SnapshotListener {
        app.backend.listen("communityOccasions", label: "checker/occasions") { [self] changes in
            apply(changes, at: app.backend.env.clock.now, context)
        }
    }

    /// One snapshot: the screen's copy after `changes`, judged at `now`.
    private func apply(_ changes: [DocumentChange], at now: Timestamp, _ context: ScenarioContext) {
        let (count, wasShown) = state.withLock { state in
            let before = state.everShown
            for change in changes {
                if change.after.exists { state.shown.insert(change.path.id) } else { state.shown.remove(change.path.id) }
            }
            state.everShown = state.everShown || !state.shown.isEmpty
            return (state.shown.count, before)
        }
        let revision = website.revision(at: now)
        guard wasShown, !emptyPageBy[revision] else { return }
        context.always(CalendarSyncScenario.Check.occasionsStayShown, count > 0,
                       "the website lists \(website.occasions(revision: revision).count) occasions and the occasions screen is empty (communityOccasions holds none)")
    }
}
