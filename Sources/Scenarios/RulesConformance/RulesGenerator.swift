import Conformance
import SimulatedFirebase

/// Draws a rules program from a seed: the documents stored first, then requests by random
/// callers, each drawn against the state the earlier (agreed) requests left. Creates name missing
/// documents and updates and deletes existing ones, so a decision is the rules' and never a
/// precondition's.
struct RulesGenerator {
    let world: RulesWorld
    private var random: ConformanceRandom

    init(world: RulesWorld, seed: UInt64) {
        self.world = world
        self.random = ConformanceRandom(seed: seed)
    }

    /// The documents stored (by the admin, past the rules) before the first request.
    mutating func initialState(documents: Int = 14) -> [(DocumentPath, Fields)] {
        var state: [DocumentPath: Fields] = [:]
        var order: [DocumentPath] = []
        for _ in 0..<documents {
            let (path, collection) = drawPath()
            if state[path] == nil { order.append(path) }
            state[path] = drawDocument(collection)
        }
        return order.map { ($0, state[$0]!) }
    }

    /// The next request, given the documents that exist now.
    mutating func next(_ state: [DocumentPath: Fields]) -> RulesRequest {
        let caller: AuthContext? = random.chance(12) ? nil : random.pick(world.users)
        let existing = state.keys.sorted { $0.description < $1.description }
        let action: RulesRequest.Action
        switch random.below(10) {
        case 0, 1: action = .get(random.chance(75) && !existing.isEmpty ? random.pick(existing) : drawPath().0)
        case 2, 3: action = .list(drawQuery())
        case 4, 5: action = drawCreate(state) ?? .get(drawPath().0)
        case 6, 7, 8:
            guard !existing.isEmpty else { action = .list(drawQuery()); break }
            let path = random.pick(existing)
            action = .update(path, mutate(state[path]!, collection(of: path)))
        default:
            action = existing.isEmpty ? .list(drawQuery()) : .delete(random.pick(existing))
        }
        return RulesRequest(caller: caller, action: action)
    }

    private mutating func drawCreate(_ state: [DocumentPath: Fields]) -> RulesRequest.Action? {
        for _ in 0..<4 {
            let (path, collection) = drawPath()
            if state[path] == nil { return .create(path, drawDocument(collection)) }
        }
        return nil
    }

    /// A query of one collection: no filter, or one or two conjuncts, each an equality, an `in`,
    /// an `array-contains` (at most one) or an `or` of two equalities — the forms whose cases the
    /// rules are judged on (`QueryFilter.ruleCases`).
    private mutating func drawQuery() -> Query {
        let (path, collection) = drawPath()
        var conjuncts: [QueryFilter] = []
        var containsUsed = false
        for field in collection.fields.shuffledPrefix(random.pick([0, 0, 1, 1, 1, 2]), &random) {
            conjuncts.append(drawConjunct(field, containsUsed: &containsUsed))
        }
        let filter: QueryFilter? = conjuncts.isEmpty ? nil : (conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts))
        return Query(path.collection, filter: filter)
    }

    private mutating func drawConjunct(_ field: RulesWorld.Field, containsUsed: inout Bool) -> QueryFilter {
        let value = random.pick(field.values)
        switch random.below(10) {
        case 0, 1:
            let other = random.pick(field.values)
            return .field(field.name, .in, .array(ValueArray(ValueOrder.equal(value, other) ? [value] : [value, other])))
        case 2 where !containsUsed:
            containsUsed = true
            let element = value.arrayValue.flatMap { $0.isEmpty ? nil : Array($0)[random.below($0.count)] } ?? value
            return .field(field.name, .arrayContains, element)
        case 3: return .or([.field(field.name, .equal, value), .field(field.name, .equal, random.pick(field.values))])
        default: return .field(field.name, .equal, value)
        }
    }

    /// A document path in a random collection, its wildcards and id drawn.
    private mutating func drawPath() -> (DocumentPath, RulesWorld.Collection) {
        let collection = random.pick(world.collections)
        let segments = collection.pattern.split(separator: "/").map { segment in
            segment.hasPrefix("{") ? random.pick(world.ids) : String(segment)
        }
        let id = random.pick(collection.ids.isEmpty ? world.ids : collection.ids)
        return (DocumentPath(segments.joined(separator: "/"), id), collection)
    }

    /// Each field present with a 3 in 4 chance, its value drawn.
    private mutating func drawDocument(_ collection: RulesWorld.Collection) -> Fields {
        var fields: Fields = [:]
        for field in collection.fields where random.chance(75) { fields[field.name] = random.pick(field.values) }
        return fields
    }

    /// `fields` with one or two fields redrawn, or (now and then) one removed; a quarter of the
    /// time an app's append instead (`append`): a rule that compares an array's old prefix and a
    /// rising number is reached only by such writes.
    private mutating func mutate(_ fields: Fields, _ collection: RulesWorld.Collection) -> Fields {
        if random.chance(25), let appended = append(fields, collection) { return appended }
        var result = fields
        for _ in 0..<(random.chance(30) ? 2 : 1) {
            let field = random.pick(collection.fields)
            if random.chance(12) { result[field.name] = nil } else { result[field.name] = random.pick(field.values) }
        }
        return result
    }

    /// An app's append: one array field (present, or missing and read as empty) grown by one
    /// element and one number raised, the rest unchanged (a bid, a like); nil when the collection
    /// has no array field.
    private mutating func append(_ fields: Fields, _ collection: RulesWorld.Collection) -> Fields? {
        let arrays = collection.fields.filter { field in field.values.contains { $0.arrayValue != nil } }
        guard !arrays.isEmpty else { return nil }
        var result = fields
        let array = random.pick(arrays)
        result[array.name] = grow(fields[array.name] ?? .array([]), array)
        let numbers = collection.fields.filter { field in field.values.contains { $0.doubleValue != nil } }
        if !numbers.isEmpty {
            let number = random.pick(numbers)
            if let raised = grow(fields[number.name] ?? .int(0), number) { result[number.name] = raised }
        }
        return result
    }

    /// `value` with one more element drawn from the field's arrays (an array) or raised to a
    /// larger drawn number (a number); nil for anything else.
    private mutating func grow(_ value: Value?, _ field: RulesWorld.Field) -> Value? {
        switch value {
        case .array(let elements)?:
            let pool = field.values.flatMap { $0.arrayValue.map(Array.init) ?? [] }
            guard !pool.isEmpty else { return nil }
            return .array(ValueArray(Array(elements) + [random.pick(pool)]))
        case .int, .double:
            let larger = field.values.filter { candidate in
                guard let a = candidate.doubleValue, let b = value?.doubleValue else { return false }
                return a > b
            }
            return larger.isEmpty ? nil : random.pick(larger)
        default:
            return nil
        }
    }

    /// The collection pattern `path` was drawn in.
    private func collection(of path: DocumentPath) -> RulesWorld.Collection {
        let segments = path.collection.split(separator: "/")
        return world.collections.first { collection in
            let pattern = collection.pattern.split(separator: "/")
            return pattern.count == segments.count && zip(pattern, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        } ?? world.collections[0]
    }
}

extension Array {
    /// `count` elements in random order, without repeats.
    fileprivate func shuffledPrefix(_ count: Int, _ random: inout ConformanceRandom) -> [Element] {
        var pool = self
        var chosen: [Element] = []
        while chosen.count < count && !pool.isEmpty { chosen.append(pool.remove(at: random.below(pool.count))) }
        return chosen
    }
}
