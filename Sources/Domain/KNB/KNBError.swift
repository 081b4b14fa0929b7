/// Rejections of the KNB app's own logic (security-rule and backend rejections are `BackendError`).
public enum KNBError: Error, Hashable, Sendable, CustomStringConvertible {
    case honorNotFound(String)
    case bidTooLow(amount: Double, currentBid: Double)
    case honorSold(String)
    case buyNowUnavailable(honorId: String, currentBid: Double, buyNowPrice: Double)
    case postTooLong(characters: Int)
    case emptyPost
    case tooManyImages(Int)
    case postNotFound(String)
    case dateAlreadyBooked(String)
    case seatTaken(String)
    case unknownVariant(String, valid: [String])

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
        case .seatTaken(let seat): return "seat \(seat) is already reserved; pick another seat"
        case .unknownVariant(let name, let valid): return "unknown KNB variant \(name); valid: \(valid.joined(separator: ", "))"
        }
    }
}
