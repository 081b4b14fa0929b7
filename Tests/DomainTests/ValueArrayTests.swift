import Domain
import Testing

/// `ValueArray` (prefixes of shared append-only buffers) against `Swift.Array` as the model:
/// views that share a buffer never see each other's appends, equality and hashing are Array's,
/// and appends racing on one buffer from real threads each keep their own element.
@Suite struct ValueArrayTests {
    static func values(_ array: ValueArray) -> [Value] { Array(array) }

    @Test("views branching from one buffer keep their own elements, as copies of an Array would")
    func branchesAreIndependent() {
        let base: ValueArray = [1, 2, 3]
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
                switch random.next(7) {
                case 0, 1, 2:
                    view.append(element)
                    model.append(element)
                case 3:
                    let other = Value.string("s\(random.next(3))")
                    view = view + [element, other]
                    model = model + [element, other]
                case 4:
                    view.removeAll { $0 == element }
                    model.removeAll { $0 == element }
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
                #expect(Value.array(view).description == Value.array(model).description)
            }
            for (a, modelA) in zip(views, models) {
                for (b, modelB) in zip(views, models).prefix(8) {
                    #expect((a == b) == (modelA == modelB))
                    #expect(a.isPrefix(of: b) == (modelA.count <= modelB.count && Array(modelB.prefix(modelA.count)) == modelA))
                }
            }
        }
    }

    @Test("appends racing on one buffer from real threads each keep their own element")
    func concurrentAppendsAreSafe() async {
        for round in 0..<50 {
            let shared: ValueArray = ValueArray((0..<Int64(round % 5)).map(Value.int))
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
