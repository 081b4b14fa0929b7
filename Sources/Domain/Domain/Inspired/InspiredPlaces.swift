import SimulatedFirebase

/// A simulated Google Places catalogue of yoga studios whose listings change over virtual time, as
/// the shadow-profile seeding reads it: place `i` opens at `opensAt(i)` (a third at the start, the
/// rest spread over `openingSpan`), and its rating and review count change on every `revisionPeriod`
/// boundary. Pure functions of the seed, the index and the time (no stream is consumed), so an
/// oracle can ask what the catalogue said at any instant without running the app.
public struct InspiredPlaces: Sendable, Hashable {
    /// Places in the catalogue.
    public let count: Int
    /// When the catalogue starts (the first places are open then).
    public let origin: Timestamp
    /// Places after the first third open evenly over this span after `origin`.
    public let openingSpan: Duration
    /// Listings change at `origin + k × revisionPeriod + revisionOffset`.
    public let revisionPeriod: Duration
    /// The offset of each revision boundary inside its period.
    public let revisionOffset: Duration
    /// Makes catalogues of different seeds differ.
    public let seed: UInt64

    /// A catalogue of `count` places from `origin`.
    public init(count: Int, origin: Timestamp, openingSpan: Duration, revisionPeriod: Duration = .seconds(3_600),
                revisionOffset: Duration = .seconds(7 * 60), seed: UInt64) {
        precondition(count >= 1 && revisionPeriod > .zero, "a catalogue needs a place and a positive revision period")
        self.count = count
        self.origin = origin
        self.openingSpan = openingSpan
        self.revisionPeriod = revisionPeriod
        self.revisionOffset = revisionOffset
        self.seed = seed
    }

    /// One place's listing.
    public struct Listing: Sendable, Hashable {
        /// The studio id the listing seeds (`studio_<index>`).
        public let studioId: String
        /// The business name.
        public let name: String
        /// The public address.
        public let address: String
        /// The average rating, 3.0–5.0 in tenths.
        public let rating: Double
        /// Reviews counted so far.
        public let reviewCount: Int64
        /// The revision of the catalogue this listing is from.
        public let revision: Int64
    }

    /// The studio id of place `index`.
    public static func studioId(_ index: Int) -> String { "studio_\(index)" }

    /// When place `index` opens (appears in the catalogue).
    public func opensAt(_ index: Int) -> Timestamp {
        let first = (count + 2) / 3
        guard index >= first else { return origin }
        let later = count - first
        return origin + openingSpan * (Double(index - first + 1) / Double(later + 1))
    }

    /// The catalogue's revision at `time` (0 before the first boundary).
    public func revision(at time: Timestamp) -> Int64 {
        let elapsed = time.unixNanoseconds - (origin + revisionOffset).unixNanoseconds
        guard elapsed >= 0 else { return 0 }
        return elapsed / revisionPeriod.nanoseconds + 1
    }

    /// Every listing open at `time`, by index.
    public func listings(at time: Timestamp) -> [Listing] {
        let revision = revision(at: time)
        return (0..<count).filter { opensAt($0) <= time }.map { listing($0, revision: revision) }
    }

    /// Place `index`'s listing in catalogue revision `revision`.
    public func listing(_ index: Int, revision: Int64) -> Listing {
        let mixed = StableHash.mix(seed, UInt64(index), UInt64(revision))
        return Listing(
            studioId: Self.studioId(index), name: "Yoga Studio \(index)", address: "\(index + 1) Studio Lane, London",
            rating: 3.0 + Double(mixed % 21) / 10, reviewCount: 10 + revision * 3 + Int64(mixed % 5), revision: revision)
    }

    /// The code the business receives to verify a claim of `studioId` (by post or phone).
    public func claimCode(_ studioId: String) -> String {
        String(StableHash.mix(seed, fnv1a64(studioId), 0xC1A1) % 1_000_000)
    }
}

extension Duration {
    /// This duration scaled by `factor`, in whole nanoseconds.
    fileprivate static func * (lhs: Duration, rhs: Double) -> Duration {
        .nanoseconds(Int64(Double(lhs.nanoseconds) * rhs))
    }
}
