import FirebaseHarness
import Harness
import SimulatedFirebase

extension KiddushBookingScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let oneBookingPerDate = CheckDeclaration(
            .always, "one-booking-per-date", "each date has at most one sponsorship")
        static let rejectionSaysAlreadyBooked = CheckDeclaration(
            .always, "rejection-says-already-booked", "a booking of a taken date is refused as 'already booked', not PERMISSION_DENIED")
        static let bookedUserIsSponsor = CheckDeclaration(
            .eventually, "booked-user-is-sponsor", "every user told 'booked' who did not cancel is the sponsor on record")
        static let oneEmailPerBooking = CheckDeclaration(
            .eventually, "one-email-per-booking", "one booking email per recipient for each standing booking (naming its sponsor); one more per invocation the platform terminated")
        static let calendarMatchesBookings = CheckDeclaration(
            .eventually, "calendar-matches-bookings",
            "once idle, kiddushCalendar/{date} shows the standing booking's sponsor (source app), and no entry where no booking stands")
        static let dateRebooked = CheckDeclaration(
            .sometimes, "date-rebooked", "a date was booked again after its booking was cancelled",
            requires: [.atLeast(Parameter.cancelPercent, 1), .atLeast(Parameter.users, 2)])
        static let dateAlreadyBooked = CheckDeclaration(
            .sometimes, "date-already-booked", "a user was told the date is taken", requires: [.atLeast(Parameter.users, 2)])
    }
}
