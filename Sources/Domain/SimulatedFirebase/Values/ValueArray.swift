import Synchronization

/// The elements of an array value: a prefix of a buffer that is only ever appended to, and at most
/// one more element that has not taken its slot in the buffer yet.
///
/// The apps write arrays back whole with one more element (KNB's client sends `bids + [newBid]`,
/// a like sends `likes + [email]`), so with `[Value]` every bid copied every earlier bid and
/// destroyed the old copy when the new version was stored: work and cache misses that grow with
/// the array, which made a long load test superlinear. Here views share one buffer. A slot never
/// changes once claimed (an atomic compare-and-exchange, so views shared between threads on the
/// real runtime stay safe), so every view of the buffer sees its own prefix unchanged: value
/// semantics as `Array`'s.
///
/// An append to a view that others share does not claim the next slot at once: the element waits
/// in a `Pending` node until some view appends after it. Concurrent transactions each append
/// their bid to the same version; with eager claims the first would claim the slot, and the
/// transaction that wins is usually not the first, so most appends would copy the whole array.
/// Only an element that is built on claims its slot, and that is the committed one, so the
/// buffer is shared from version to version. A uniquely referenced view (an array being built)
/// claims at once. Two views of the same buffer agree on their common buffered prefix
/// without looking at it, which `isPrefix(of:)` and `==` use (as `Array`'s `==` does for one
/// buffer). Hashing is `Array`'s: the count, then every element. docs/performance.md, "Where the
/// bytes and instructions go: the data structures".
public struct ValueArray: Sendable, Hashable, RandomAccessCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    /// A position among the elements.
    public typealias Index = Int

    /// What a view reads: a `Storage` buffer, or a `Pending` element on top of one (`isPending`
    /// says which without a dynamic cast).
    @usableFromInline
    class Node: @unchecked Sendable {
        @usableFromInline let isPending: Bool
        init(isPending: Bool) { self.isPending = isPending }
    }

    /// The shared buffer: `capacity` slots, the first `claimed` initialised and immutable.
    @usableFromInline
    final class Storage: Node, @unchecked Sendable {
        @usableFromInline let capacity: Int
        @usableFromInline let base: UnsafeMutablePointer<Value>
        /// How many slots hold an element; only ever grows, by `claim` (or once, by the creator).
        let claimed = Atomic<Int>(0)

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
            super.init(isPending: false)
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

        /// A new buffer of `capacity` slots holding this buffer's first `count` elements.
        func copy(count: Int, capacity: Int) -> Storage {
            let fresh = Storage(capacity: capacity)
            fresh.base.initialize(from: base, count: count)
            fresh.claimed.store(count, ordering: .releasing)
            return fresh
        }
    }

    /// `base`'s first `baseCount` elements, then `element`, which has not claimed slot
    /// `baseCount` yet: it does when a view appends after it (`settled()`).
    @usableFromInline
    final class Pending: Node, @unchecked Sendable {
        @usableFromInline let base: Storage
        @usableFromInline let baseCount: Int
        @usableFromInline let element: Value
        /// The buffer that holds all `baseCount + 1` elements, once a view has needed it: every
        /// view of this node then shares it.
        private let settledStorage = Mutex<Storage?>(nil)

        init(base: Storage, baseCount: Int, element: Value) {
            self.base = base
            self.baseCount = baseCount
            self.element = element
            super.init(isPending: true)
        }

        /// A buffer whose first `baseCount + 1` elements are this node's: `base` itself when slot
        /// `baseCount` is free, else a copy (another view's element took the slot, or it is full).
        func settled() -> Storage {
            settledStorage.withLock { settled in
                if let settled { return settled }
                let storage: Storage
                if base.claim(baseCount, element) {
                    storage = base
                } else {
                    storage = base.copy(count: baseCount, capacity: ValueArray.grownCapacity(count: baseCount, full: baseCount >= base.capacity))
                    let stored = storage.claim(baseCount, element)
                    precondition(stored, "a fresh ValueArray buffer refused its next slot")
                }
                settled = storage
                return storage
            }
        }
    }

    @usableFromInline var node: Node?
    /// The number of elements (this view's prefix of the buffer, plus a pending element).
    public private(set) var count: Int

    /// No elements.
    public init() {
        node = nil
        count = 0
    }

    /// `[…]`.
    public init(arrayLiteral elements: Value...) { self.init(elements) }

    /// The elements of `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Value {
        self.init()
        let copied: Void? = elements.withContiguousStorageIfAvailable { buffer in
            guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
            let fresh = Storage(capacity: buffer.count)
            fresh.base.initialize(from: source, count: buffer.count)
            fresh.claimed.store(buffer.count, ordering: .releasing)
            node = fresh
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
        let node = self.node.unsafelyUnwrapped
        guard _slowPath(node.isPending) else { return unsafeDowncast(node, to: Storage.self).base[position] }
        let pending = unsafeDowncast(node, to: Pending.self)
        return position == pending.baseCount ? pending.element : pending.base.base[position]
    }

    /// The buffer this view's first elements are in, and how many of them (all but a pending one).
    private var buffered: (storage: Storage, count: Int)? {
        guard let node else { return nil }
        guard node.isPending else { return (unsafeDowncast(node, to: Storage.self), count) }
        let pending = unsafeDowncast(node, to: Pending.self)
        return (pending.base, pending.baseCount)
    }

    /// The buffer this view's first elements are in (a test hook: views that share it did not copy).
    package var bufferIdentity: ObjectIdentifier? { buffered.map { ObjectIdentifier($0.storage) } }

    /// This view as a plain prefix of a buffer (a pending element takes its slot, or a copy).
    private mutating func settle() -> Storage? {
        guard let node else { return nil }
        guard node.isPending else { return unsafeDowncast(node, to: Storage.self) }
        let pending = unsafeDowncast(node, to: Pending.self)
        assert(count == pending.baseCount + 1, "a pending ValueArray element is always its view's last")
        let storage = pending.settled()
        self.node = storage
        return storage
    }

    /// The capacity of a copy made to append after `count` elements: a full buffer doubles, as an
    /// Array's does; a taken slot (another view appended first) gets room for a few more.
    static func grownCapacity(count: Int, full: Bool) -> Int {
        full ? Swift.max(4, count * 2) : count + Swift.max(4, count / 4)
    }

    /// Appends `value`. A view that others share leaves it pending (it claims its slot only when
    /// a view appends after it); a view of its own claims the next slot, or copies.
    public mutating func append(_ value: Value) {
        // No reference may be held across the uniqueness check, so the buffer is read after it.
        guard settle() != nil, !isKnownUniquelyReferenced(&node) else { return claimOrCopy(value) }
        node = Pending(base: unsafeDowncast(node.unsafelyUnwrapped, to: Storage.self), baseCount: count, element: value)
        count += 1
    }

    /// Appends `value` into the next slot of this view's (settled) buffer if it is free, else into
    /// a copy.
    private mutating func claimOrCopy(_ value: Value) {
        let storage = node.map { unsafeDowncast($0, to: Storage.self) }
        if let storage, storage.claim(count, value) {
            count += 1
            return
        }
        reallocate(capacity: Self.grownCapacity(count: count, full: storage.map { count >= $0.capacity } ?? true))
        let stored = unsafeDowncast(node.unsafelyUnwrapped, to: Storage.self).claim(count, value)
        precondition(stored, "a fresh ValueArray buffer refused its next slot")
        count += 1
    }

    /// Appends each element of `elements`, each claiming its slot at once.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Value {
        let needed = count + elements.underestimatedCount
        let storage = settle()
        if let storage, needed > storage.capacity, storage.claimed.load(ordering: .acquiring) == count {
            reallocate(capacity: Swift.max(needed, count * 2))
        } else if storage == nil, needed > 0 {
            reallocate(capacity: needed)
        }
        for element in elements { claimOrCopy(element) }
    }

    /// Makes room for `minimumCapacity` elements in a buffer of this view's own.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        let storage = settle()
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

    /// Moves this view's elements (settled first) into a new buffer of `capacity` slots.
    private mutating func reallocate(capacity: Int) {
        node = settle().map { $0.copy(count: count, capacity: capacity) } ?? Storage(capacity: capacity)
    }

    /// `lhs` then `rhs` (in `lhs`'s buffer when its next slot is free). Concrete, so that
    /// `.array(a + [x])` does not resolve to `Array`'s generic `+` and copy `a` twice.
    public static func + (lhs: ValueArray, rhs: ValueArray) -> ValueArray {
        var result = lhs
        if rhs.count == 1 {
            result.append(rhs[0])
        } else {
            result.append(contentsOf: rhs)
        }
        return result
    }

    /// Whether this array is the first `count` elements of `other`. Two views of one buffer share
    /// their common buffered prefix, so only the elements past it are compared.
    public func isPrefix(of other: ValueArray) -> Bool {
        guard count <= other.count else { return false }
        var shared = 0
        if let mine = buffered, let theirs = other.buffered, mine.storage === theirs.storage {
            shared = Swift.min(mine.count, theirs.count)
        }
        for index in shared..<count where self[index] != other[index] { return false }
        return true
    }

    /// Equal counts and equal elements (views of one buffer: their elements past it).
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
