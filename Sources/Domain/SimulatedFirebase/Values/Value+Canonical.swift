/// Firestore stores -0.0 as 0.0 (the two are one value to every comparison, so the stored form
/// is the canonical one; a read gives 0.0 back). Writes canonicalise what they store.
extension Value {
    /// The value with every -0.0 inside it made 0.0; `self` when there is none (no copy).
    public var canonicalized: Value {
        guard hasNegativeZero else { return self }
        switch self {
        case .double: return .double(0)
        case .array(let elements):
            var copy: [Value] = []
            copy.reserveCapacity(elements.count)
            for element in elements { copy.append(element.canonicalized) }
            return .array(copy)
        case .map(let fields): return .map(fields.canonicalized)
        default: return self
        }
    }

    /// Whether a -0.0 is anywhere inside the value.
    var hasNegativeZero: Bool {
        switch self {
        case .double(let number):
            return number == 0 && number.sign == .minus
        case .array(let elements):
            for element in elements where element.hasNegativeZero { return true }
            return false
        case .map(let fields):
            for (_, value) in fields where value.hasNegativeZero { return true }
            return false
        default:
            return false
        }
    }
}

extension Value {
    /// Whether an array holds an array somewhere inside this value (Firestore refuses to store
    /// one: "Cannot convert an array value in an array value").
    var nestsArrays: Bool {
        switch self {
        case .array(let elements):
            for element in elements {
                if case .array = element { return true }
                if element.nestsArrays { return true }
            }
            return false
        case .map(let fields):
            for (_, value) in fields where value.nestsArrays { return true }
            return false
        default:
            return false
        }
    }
}

extension Fields {
    /// The fields with every -0.0 made 0.0; `self` when there is none.
    public var canonicalized: Fields {
        var result = self
        for (key, value) in self where value.hasNegativeZero { result[key] = value.canonicalized }
        return result
    }
}
