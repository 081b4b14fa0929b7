import Synchronization

/// The elements of an array value: a prefix of a buffer that is only ever appended to.
///
/// The apps write arrays back whole with one more element (KNB's client sends `bids + [newBid]`,
/// a like sends `likes + [email]`), so with `[Value]` every bid copied every earlier bid and
/// destroyed the old copy when the new version was stored: work and cache misses that grow with
/// the array, which made a long load test superlinear. Here `a + [x]` claims the next slot of
/// `a`'s buffer when nobody has claimed it yet (an atomic compare-and-exchange, so views shared
/// between threads on the real runtime stay safe) and copies only when someone has, or when the
/// buffer is full. A slot never changes once claimed, so every view of the buffer sees its own
/// prefix unchanged: value semantics as `Array`'s. Two views of the same buffer agree on their
/// common prefix without looking at it, which `isPrefix(of:)` and `==` use (as `Array`'s `==`
/// does for one buffer). Hashing is `Array`'s: the count, then every element.
/// docs/performance.md, "Stop 26".
public struct ValueArray: Sendable, Hashable, RandomAccessCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    /// A position among the elements.
    public typealias Index = Int

    /// The shared buffer: `capacity` slots, the first `claimed` initialised and immutable.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let capacity: Int
        @usableFromInline let base: UnsafeMutablePointer<Value>
        /// How many slots hold an element; only ever grows, by `claim` (or once, by the creator).
        let claimed = Atomic<Int>(0)

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: claimed.load(ordering: .acquiring))
            base.deallocate()
        }

        /// Stores `value` in slot `index` if it is free and the next one (the caller's prefix
        /// ends there and no other view has appended past it); false if it is taken or beyond
        /// the capacity.
        func claim(_ index: Int, _ value: Value) -> Bool {
            guard index < capacity,
                claimed.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged
            else { return false }
            (base + index).initialize(to: value)
            return true
        }
    }

    @usableFromInline var storage: Storage?
    /// The number of elements (this view's prefix of the buffer).
    public private(set) var count: Int

    /// No elements.
    public init() {
        storage = nil
        count = 0
    }

    /// `[…]`.
    public init(arrayLiteral elements: Value...) { self.init(elements) }

    /// The elements of `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Value {
        self.init()
        let copied = elements.withContiguousStorageIfAvailable { buffer in
            guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
            let fresh = Storage(capacity: buffer.count)
            fresh.base.initialize(from: source, count: buffer.count)
            fresh.claimed.store(buffer.count, ordering: .releasing)
            storage = fresh
            count = buffer.count
        }
        if copied == nil { append(contentsOf: elements) }
    }

    /// The first position.
    @inlinable public var startIndex: Int { 0 }
    /// One past the last position.
    @inlinable public var endIndex: Int { count }

    /// The element at `position`.
    @inlinable public subscript(position: Int) -> Value {
        precondition(position >= 0 && position < count, "ValueArray index \(position) out of range 0..<\(count)")
        return storage.unsafelyUnwrapped.base[position]
    }

    /// Appends `value`: into the shared buffer's next slot if it is free, else into a copy.
    public mutating func append(_ value: Value) {
        if let storage, storage.claim(count, value) {
            count += 1
            return
        }
        // A full buffer doubles, as an Array's does; a taken slot (another view appended first,
        // usually a transaction that will lose) gets room for a few more, not a doubling.
        let full = storage.map { count >= $0.capacity } ?? true
        reallocate(capacity: full ? Swift.max(4, count * 2) : count + Swift.max(4, count / 4))
        let stored = storage.unsafelyUnwrapped.claim(count, value)
        precondition(stored, "a fresh ValueArray buffer refused its next slot")
        count += 1
    }

    /// Appends each element of `elements`.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Value {
        let needed = count + elements.underestimatedCount
        if let storage, needed > storage.capacity, storage.claimed.load(ordering: .acquiring) == count {
            reallocate(capacity: Swift.max(needed, count * 2))
        } else if storage == nil, needed > 0 {
            reallocate(capacity: needed)
        }
        for element in elements { append(element) }
    }

    /// Makes room for `minimumCapacity` elements in a buffer of this view's own.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > (storage?.capacity ?? 0) else { return }
        reallocate(capacity: minimumCapacity)
    }

    /// Replaces `subrange` with `newElements`: appends in place at the end, copies otherwise.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Value {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "ValueArray range \(subrange) out of 0..<\(count)")
        if subrange.isEmpty && subrange.lowerBound == count {
            append(contentsOf: newElements)
            return
        }
        var result = ValueArray()
        result.reallocate(capacity: Swift.max(1, count - subrange.count + newElements.count))
        result.append(contentsOf: self[..<subrange.lowerBound])
        result.append(contentsOf: newElements)
        result.append(contentsOf: self[subrange.upperBound...])
        self = result
    }

    /// Moves this view's elements into a new buffer of `capacity` slots.
    private mutating func reallocate(capacity: Int) {
        let fresh = Storage(capacity: capacity)
        if let storage {
            fresh.base.initialize(from: storage.base, count: count)
            fresh.claimed.store(count, ordering: .releasing)
        }
        storage = fresh
    }

    /// `lhs` then `rhs` (in `lhs`'s buffer when its next slot is free). Concrete, so that
    /// `.array(a + [x])` does not resolve to `Array`'s generic `+` and copy `a` twice.
    public static func + (lhs: ValueArray, rhs: ValueArray) -> ValueArray {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    /// Whether this array is the first `count` elements of `other`. Two views of one buffer share
    /// their common prefix, so this is then a comparison of counts.
    public func isPrefix(of other: ValueArray) -> Bool {
        guard count <= other.count else { return false }
        if storage === other.storage { return true }
        for index in 0..<count where self[index] != other[index] { return false }
        return true
    }

    /// Equal counts and equal elements (one buffer's views: equal counts).
    public static func == (lhs: ValueArray, rhs: ValueArray) -> Bool {
        lhs.count == rhs.count && lhs.isPrefix(of: rhs)
    }

    /// `Array`'s hash: the count, then every element in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }

    /// `[a,b,…]` with each element's description.
    public var description: String { "[" + map(\.description).joined(separator: ",") + "]" }
}
