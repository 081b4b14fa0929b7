import FirebaseHarness
import Harness
import SimulatedFirebase

extension DailyReminderScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let atLocalTime = CheckDeclaration(
            .always, "reminder-at-local-time",
            "each reminder goes out between the user's dailyReminderTime on a local day (DST-skipped times read with the offset before the change, repeated ones at their first occurrence; instants from a table) and the catch-up after it",
            operations: ["onboarded:", "reminder", "reminder time"])
        static let onePerLocalDay = CheckDeclaration(
            .always, "one-reminder-per-local-day", "no user gets two reminders for one local day (a fall-back day included)",
            operations: ["onboarded:", "reminder", "reminder time", "reminder off", "reminder on"])
        static let noneWhenDisabled = CheckDeclaration(
            .always, "no-reminder-when-disabled", "no reminder goes to a user whose reminder was off for the last minute before it",
            operations: ["onboarded:", "reminder", "reminder off", "reminder on"])
        static let noneAfterCheckIn = CheckDeclaration(
            .always, "no-reminder-after-checkin", "no reminder for a local day on which the user checked in more than a minute before it",
            requires: [.atLeast(Parameter.skipIfCheckedIn, 1)], operations: ["onboarded:", "reminder", "check-in"])
        static let everyEnabledDay = CheckDeclaration(
            .eventually, "reminder-every-enabled-day",
            "each local day on which the user's settings did not change, the reminder was on and (with skipIfCheckedIn) no check-in came before it ended, got a reminder (unless FCM refused a push and no later run started within the catch-up)",
            operations: ["onboarded:", "reminder", "reminder time", "reminder off", "reminder on", "check-in"])
        static let reminderSent = CheckDeclaration(
            .sometimes, "reminder-sent", "a daily reminder went out")
        static let dstEdgeReminder = CheckDeclaration(
            .sometimes, "reminder-at-dst-edge-time", "a reminder went out for a local time the DST change skipped or repeated that day",
            requires: [.atLeast(Parameter.dstEdgePercent, 1)])
        static let skippedTimeReminder = CheckDeclaration(
            .sometimes, "reminder-at-skipped-time", "a reminder went out for a local time the spring-forward skipped (02:30 in Los Angeles)",
            requires: [.atLeast(Parameter.dstEdgePercent, 1), .atMost(Parameter.transition, 0)])
        static let repeatedTimeReminder = CheckDeclaration(
            .sometimes, "reminder-at-repeated-time", "a reminder went out for a local time the fall-back repeated (01:30 in Los Angeles), once",
            requires: [.atLeast(Parameter.dstEdgePercent, 1), .atMost(Parameter.transition, 0)])
        static let changedTimeReminder = CheckDeclaration(
            .sometimes, "reminder-at-changed-time", "a reminder went out at a time the user set mid-run",
            requires: [.atLeast(Parameter.timeChangePercent, 1)])
        static let skippedAfterCheckIn = CheckDeclaration(
            .sometimes, "reminder-skipped-after-checkin", "a day's reminder was skipped because the user had checked in that day",
            requires: [.atLeast(Parameter.skipIfCheckedIn, 1), .atLeast(Parameter.checkInPercent, 1)])
    }
}
