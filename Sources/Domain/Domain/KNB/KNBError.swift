import SimulatedFirebase

/// A rejected KNB request: the app's own refusals, or `backend` for what the backend refused or
/// failed (rules, contention, network).
public enum KNBError: AppError, Hashable, CustomStringConvertible {
    case honorNotFound(String)
    case bidTooLow(amount: Double, currentBid: Double)
    case honorSold(String)
    case buyNowUnavailable(honorId: String, currentBid: Double, buyNowPrice: Double)
    case postTooLong(characters: Int)
    case emptyPost
    case tooManyImages(Int)
    case postNotFound(String)
    case dateAlreadyBooked(String)
    /// The booking to cancel is now another sponsor's (the date was cancelled and booked again).
    case bookingChanged(String)
    case seatTaken(String)
    /// A bid failed after an attempt whose answer may have been lost, and the honor could not be
    /// read to tell whether it landed: the app says so instead of "failed" (careful design).
    case bidOutcomeUnknown(honorId: String)
    /// The backend refused or failed the request (rules, contention, network).
    case backend(BackendError)

    /// What went wrong and what the user can do.
    public var description: String {
        switch self {
        case .honorNotFound(let id): return "honor \(id) does not exist; refresh the auction list"
        case .bidTooLow(let amount, let current): return "bid \(amount) must exceed the current bid \(current)"
        case .honorSold(let id): return "honor \(id) is already sold; no more bids"
        case .buyNowUnavailable(let id, let current, let price):
            return "Buy Now on \(id) needs the current bid (\(current)) below the Buy Now price (\(price))"
        case .postTooLong(let count): return "a post has at most 140 characters, this one has \(count)"
        case .emptyPost: return "a post needs text or at least one image"
        case .tooManyImages(let count): return "a post has at most 4 images, this one has \(count)"
        case .postNotFound(let id): return "post \(id) does not exist (deleted?)"
        case .dateAlreadyBooked(let date): return "the kiddush on \(date) is already sponsored; pick another Shabbat"
        case .bookingChanged(let date): return "the kiddush booking of \(date) is no longer the one you meant (cancelled and booked again); refresh"
        case .seatTaken(let seat): return "seat \(seat) is already reserved; pick another seat"
        case .bidOutcomeUnknown(let id): return "your bid on \(id) may have gone through; it shows in the auction once the connection is back"
        case .backend(let error): return "Backend: \(error)"
        }
    }

    /// The backend's error for `.backend`, nil for KNB's own refusals.
    public var backendError: BackendError? {
        if case .backend(let error) = self { return error }
        return nil
    }
}
