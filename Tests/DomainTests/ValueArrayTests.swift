import Domain
import SimulatedFirebase
import Testing

/// `ValueArray` (prefixes of shared append-only buffers) against `Swift.Array` as the model:
/// views that share a buffer never see each other's appends, equality and hashing are Array's,
/// and appends racing on one buffer from real threads each keep their own element.
@Suite struct ValueArrayTests {
    static func values(_ array: ValueArray) -> [Value] { Array(array) }

    @Test("views branching from one buffer keep their own elements, as copies of an Array would")
    func branchesAreIndependent() {
        var base: ValueArray = [1, 2, 3]
        base.reserveCapacity(8)  // spare slots, so the next append claims one in place
        let first = base + [Value.int(4)]  // takes slot 3 in place
        let second = base + [Value.int(5)]  // slot 3 is taken: a copy
        var third = first
        third.append(6)
        var fourth = first
        fourth.append(7)  // slot 4 taken by `third`: a copy
        #expect(Self.values(base) == [1, 2, 3])
        #expect(Self.values(first) == [1, 2, 3, 4])
        #expect(Self.values(second) == [1, 2, 3, 5])
        #expect(Self.values(third) == [1, 2, 3, 4, 6])
        #expect(Self.values(fourth) == [1, 2, 3, 4, 7])
        #expect(base.isPrefix(of: first) && base.isPrefix(of: second) && first.isPrefix(of: third))
        #expect(!second.isPrefix(of: third) && !first.isPrefix(of: second) && !third.isPrefix(of: first))
        #expect(first != second && third != fourth && first == ValueArray([1, 2, 3, 4]))
    }

    @Test("rounds of racing transactions share one buffer: only the committed element claims a slot")
    func committedAppendsShareTheBuffer() {
        var committed: ValueArray = [1, 2, 3]
        var buffers: [ObjectIdentifier] = []
        for round in 0..<40 {
            // Eight transactions read the committed array and each append their own element; a
            // different one wins each round (with eager claims, the first appender took the slot
            // and every other winner copied the whole array).
            let attempts = (0..<8).map { attempt in
                var view = committed
                view.append(.int(Int64(100 * round + attempt)))
                return view
            }
            let winner = attempts[(round * 5 + 3) % 8]
            for (attempt, view) in attempts.enumerated() {
                #expect(Self.values(view) == Self.values(committed) + [.int(Int64(100 * round + attempt))])
                #expect(committed.isPrefix(of: view) && (view == winner) == (view.last == winner.last))
                #expect(view.bufferIdentity == attempts[0].bufferIdentity, "every reader of one version shares its buffer")
            }
            if let buffer = attempts[0].bufferIdentity, buffers.last != buffer { buffers.append(buffer) }
            committed = winner
        }
        #expect(Self.values(committed).count == 43 && Self.values(committed).prefix(3) == [1, 2, 3])
        // Only a full buffer was copied: 3 slots, then 6, 12, 24 and 48.
        #expect(buffers.count == 5, "the committed array moved to a new buffer \(buffers.count) times in 40 rounds")
    }

    @Test("random appends, removals and replacements on shared views match an Array model")
    func matchesArray() {
        var random = TestGenerator(state: 11)
        for _ in 0..<300 {
            // A pool of live views and their models; each step derives a view from one of them.
            var views: [ValueArray] = [[]]
            var models: [[Value]] = [[]]
            for _ in 0..<40 {
                let pick = random.next(views.count)
                var view = views[pick], model = models[pick]
                let element = Value.int(Int64(random.next(6)))
                switch random.next(8) {
                case 0, 1, 2:
                    view.append(element)
                    model.append(element)
                case 3:
                    let other = Value.string("s\(random.next(3))")
                    view = view + [element, other]
                    model = model + [element, other]
                case 7:
                    view = view + [element]
                    model = model + [element]
                case 4:
                    view.removeAll { $0 == element }
                    model.removeAll { $0 == element }
                case 6 where model.count < 50:
                    view.append(contentsOf: view)
                    model.append(contentsOf: model)
                case 5 where !model.isEmpty:
                    let at = random.next(model.count)
                    view.insert(element, at: at)
                    model.insert(element, at: at)
                default:
                    view = ValueArray(view.filter { $0 != element })
                    model = model.filter { $0 != element }
                }
                views.append(view)
                models.append(model)
            }
            for (view, model) in zip(views, models) {
                #expect(Self.values(view) == model)
                #expect(view.count == model.count)
                #expect(view == ValueArray(model))
                #expect(view.hashValue == model.hashValue, "ValueArray hashes as Array does")
                #expect(Value.array(view).description == "[" + model.map(\.description).joined(separator: ",") + "]")
            }
            for (a, modelA) in zip(views, models) {
                for (b, modelB) in zip(views, models).prefix(8) {
                    #expect((a == b) == (modelA == modelB))
                    #expect(a.isPrefix(of: b) == (modelA.count <= modelB.count && Array(modelB.prefix(modelA.count)) == modelA))
                }
            }
        }
    }

    @Test("descriptions, lazy and non-contiguous sources, and a buffer shared by a literal")
    func descriptionsAndSources() {
        #expect(Value.array([1, "a", [2.5, nil]]).description == "[1,\"a\",[2.5,null]]")
        #expect(Value.array(ValueArray()).description == "[]")
        let lazy = ValueArray((1...5).lazy.map { Value.int(Int64($0)) })
        #expect(Array(lazy) == [1, 2, 3, 4, 5])
        let fromView = ValueArray(lazy.prefix(2))
        #expect(Array(fromView) == [1, 2] && fromView.isPrefix(of: lazy) && !lazy.isPrefix(of: fromView))
        var grown = lazy
        grown.append(contentsOf: AnySequence([Value.int(6), .int(7)]))  // underestimatedCount 0
        #expect(Array(grown) == [1, 2, 3, 4, 5, 6, 7] && Array(lazy) == [1, 2, 3, 4, 5])
    }

    @Test("appends racing on one buffer from real threads each keep their own element")
    func concurrentAppendsAreSafe() async {
        for round in 0..<50 {
            // Spare slots, so every worker's first append races for the same slot.
            var spare = ValueArray((0..<Int64(round % 5)).map(Value.int))
            spare.reserveCapacity(64)
            let shared = spare
            let results = await withTaskGroup(of: (Int, ValueArray).self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        var view = shared
                        for step in 0..<8 { view.append(.int(Int64(1000 * worker + step))) }
                        return (worker, view)
                    }
                }
                return await group.reduce(into: [(Int, ValueArray)]()) { $0.append($1) }
            }
            #expect(results.count == 16)
            for (worker, view) in results {
                #expect(Self.values(view) == Self.values(shared) + (0..<8).map { .int(Int64(1000 * worker + $0)) })
            }
            #expect(shared.count == round % 5)
        }
    }
}
