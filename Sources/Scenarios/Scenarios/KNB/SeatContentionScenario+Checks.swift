import FirebaseHarness
import Harness
import SimulatedFirebase

extension SeatContentionScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let noSeatDoubleBooked = CheckDeclaration(
            .always, "no-seat-double-booked", "each seat has at most one reservation")
        static let confirmedReservationsHeld = CheckDeclaration(
            .eventually, "confirmed-reservations-held", "every user told 'reserved' holds that seat")
        static let releaseAnswerTrue = CheckDeclaration(
            .always, "release-answer-true", "a user told their seat is released no longer holds it, and one told the release was refused still does (an answer that never came, a time-out, is not judged)")
        static let seatReleased = CheckDeclaration(
            .sometimes, "seat-released", "a user released a seat", requires: [.atLeast(Parameter.releasePercent, 1)])
        static let seatTaken = CheckDeclaration(
            .sometimes, "seat-taken", "a user was told a seat was already taken")
    }
}
