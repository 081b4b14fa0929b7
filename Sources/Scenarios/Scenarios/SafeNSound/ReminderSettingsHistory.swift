import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// One daily-reminder user's settings over time, as the user changed them (the oracle's record,
/// not the app's): entries in order, each the value from some instant in [start, end] on. A change
/// is resolved by reading the user's own document back, so its entry holds what the server has.
final class ReminderSettingsHistory: Sendable {
    /// One state of the settings.
    struct Entry: Sendable {
        /// Domain-clock nanoseconds when the change was sent (0 for the onboarding state).
        let start: Int64
        /// When the change was known to be in effect; `Int64.max` while unresolved.
        var end: Int64
        var enabled: Bool
        var time: SafeNSoundReminderTime?
    }

    private let entries: Mutex<[Entry]>

    /// A history starting with the onboarding settings.
    init(enabled: Bool, time: SafeNSoundReminderTime?) {
        entries = Mutex([Entry(start: 0, end: 0, enabled: enabled, time: time)])
    }

    /// Records a change as it is sent, with the settings it means to leave; returns its position for `finish`.
    func begin(at start: Int64, enabled: Bool, time: SafeNSoundReminderTime?) -> Int {
        entries.withLock { all in
            all.append(Entry(start: start, end: .max, enabled: enabled, time: time))
            return all.count - 1
        }
    }

    /// Resolves change `position`: the settings read back and when.
    func finish(_ position: Int, at end: Int64, enabled: Bool, time: SafeNSoundReminderTime?) {
        entries.withLock { all in
            all[position].end = end
            all[position].enabled = enabled
            all[position].time = time
        }
    }

    /// The settings the user means to have now (the last entry).
    var latest: Entry { entries.withLock { $0.last! } }
    /// The onboarding settings.
    var initial: Entry { entries.withLock { $0[0] } }

    /// Every state that may have been in effect at some instant of [from, to].
    func possible(from: Int64, to: Int64) -> [Entry] {
        entries.withLock { all in
            let settled = all.lastIndex { $0.end < from } ?? 0
            return [all[settled]] + all[(settled + 1)...].filter { $0.start <= to }
        }
    }
}
