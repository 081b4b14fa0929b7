/// The ids of the tasks one simulation captured from the global executor: a bit per id.
///
/// The runtime numbers tasks in creation order, so one run's ids lie close together and a bit
/// each costs a small fraction of a dictionary entry per task (which would be kept until the run
/// ends, and cost a hash and a resize on the hot path). An id more than `maximumWords` words away
/// from the others is kept in `outliers`.
struct TaskClaims {
    /// The id of bit 0 of `words[0]` (a multiple of 64).
    private var base: UInt64 = 0
    private var words: [UInt64] = []
    private var outliers: Set<UInt64> = []

    /// The most words the bits may span (2^20 words: 64 M ids, 8 MB).
    static let maximumWords = 1 << 20

    /// Remembers `id`.
    mutating func insert(_ id: UInt64) {
        let aligned = id & ~63
        if words.isEmpty {
            base = aligned
            words = [0]
        } else if aligned < base {
            let missing = (base - aligned) / 64
            guard missing <= UInt64(Self.maximumWords - words.count) else {
                outliers.insert(id)
                return
            }
            words.insert(contentsOf: repeatElement(0, count: Int(missing)), at: 0)
            base = aligned
        } else {
            let index = (aligned - base) / 64
            if index >= UInt64(words.count) {
                guard index < UInt64(Self.maximumWords) else {
                    outliers.insert(id)
                    return
                }
                words.append(contentsOf: repeatElement(0, count: Int(index) + 1 - words.count))
            }
        }
        words[Int((aligned - base) / 64)] |= 1 << (id & 63)
    }

    /// Whether `id` was inserted.
    func contains(_ id: UInt64) -> Bool {
        if id >= base {
            let index = (id - base) / 64
            if index < UInt64(words.count) { return words[Int(index)] & (1 << (id & 63)) != 0 }
        }
        return outliers.contains(id)
    }
}
