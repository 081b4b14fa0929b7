import FirebaseHarness
import Harness
import SimulatedFirebase

extension CalendarSyncScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile.
    enum Check {
        static let calendarKeepsAppBookings = CheckDeclaration(
            .eventually, "calendar-keeps-app-bookings",
            "once idle, every date booked in the app shows that booking (its sponsor, status sponsored, source app), whatever the website says")
        static let calendarMatchesWebsite = CheckDeclaration(
            .eventually, "calendar-matches-website",
            "once idle, every date without an app booking shows the website's final row (status, sponsor, occasion, parsha; source website)")
        static let occasionsMatchWebsite = CheckDeclaration(
            .eventually, "occasions-match-website",
            "once idle, communityOccasions holds exactly the website's final occasions (category, date, text), each in its group")
        static let occasionsStayShown = CheckDeclaration(
            .always, "occasions-stay-shown", "once the occasions screen has shown occasions, it is never empty while the website lists some (a checker's listener, every change)")
        static let cancelledDateRestored = CheckDeclaration(
            .sometimes, "cancelled-date-restored", "a date whose app booking was cancelled shows the website's row again",
            requires: [.atLeast(Parameter.cancelPercent, 1)])
        static let unchangedPageSkipped = CheckDeclaration(
            .sometimes, "unchanged-page-skipped", "a calendar sync run found the page unchanged and wrote nothing")
    }
}
