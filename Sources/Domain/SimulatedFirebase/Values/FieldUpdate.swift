/// One field's change in an update or merge: a plain set or one of Firestore's transforms.
///
/// Semantics follow MODEL_RULES §7: `increment` is not idempotent (applying it twice adds twice);
/// `arrayUnion` appends only elements not already present; `arrayRemove` removes every instance.
public enum FieldUpdate: Hashable, Sendable {
    case set(Value)
    case increment(Value)
    case arrayUnion([Value])
    case arrayRemove([Value])
    case delete
    /// The commit time of the write (Firestore's `serverTimestamp()`).
    case serverTimestamp

    /// The new value of a field given its old value (`nil` if absent); `nil` result deletes it.
    func applied(to old: Value?, commitTime: Timestamp) -> Value? {
        switch self {
        case .set(let value): return value.canonicalized
        case .delete: return nil
        case .serverTimestamp: return .timestamp(commitTime)
        case .increment(let operand):
            switch (old, operand) {
            case (.int(let a)?, .int(let b)):
                // Integer increments saturate at the int64 bounds (they never wrap).
                let (sum, overflow) = a.addingReportingOverflow(b)
                return .int(overflow ? (b > 0 ? .max : .min) : sum)
            case (let a?, let b) where a.doubleValue != nil && b.doubleValue != nil:
                return Value.double(a.doubleValue! + b.doubleValue!).canonicalized
            default: return operand.canonicalized  // Firestore: a missing or non-numeric field is set to the operand.
            }
        case .arrayUnion(let elements):
            // Elements are one value when Firestore's order says so (1 and 1.0 are one element).
            var array = old?.arrayValue ?? []
            for element in elements where !array.contains(where: { ValueOrder.equal($0, element) }) { array.append(element.canonicalized) }
            return .array(array)
        case .arrayRemove(let elements):
            let array = old?.arrayValue ?? []
            return .array(array.filter { kept in !elements.contains { ValueOrder.equal($0, kept) } })
        }
    }
}

extension Fields {
    /// Applies `updates` keyed by dotted field paths (`"fcmTokens.tok1"` reaches into a map), in
    /// key order (the order `FieldUpdates` keeps), so the result never depends on how the updates
    /// were written.
    public func applying(_ updates: FieldUpdates, commitTime: Timestamp) -> Fields {
        var result = self
        // Most updates name top-level fields only: both lists are in key order, so one walk
        // finds every field (no search, no path to split: splitting each key into an array of
        // Strings was most of a commit's field work).
        if !updates.entries.contains(where: { $0.key.utf8.contains(UInt8(ascii: ".")) }) {
            var position = 0
            for change in updates.entries {
                precondition(!change.key.isEmpty, "empty segment in field path \(change.key)")
                while position < result.entries.count && result.entries[position].key < change.key { position += 1 }
                let found = position < result.entries.count && result.entries[position].key == change.key
                let old: Value?
                if found { old = result.entries[position].value } else { old = nil }
                // As `result[key] = …` would: the stored key's spelling stays.
                switch (found, change.update.applied(to: old, commitTime: commitTime)) {
                case (true, let value?): result.entries[position].value = value; position += 1
                case (true, nil): result.entries.remove(at: position)
                case (false, let value?): result.entries.insert(Entry(key: change.key, value: value), at: position); position += 1
                case (false, nil): break
                }
            }
            return result
        }
        for (key, update) in updates {
            if !key.utf8.contains(UInt8(ascii: ".")) {
                precondition(!key.isEmpty, "empty segment in field path \(key)")
                result[key] = update.applied(to: result[key], commitTime: commitTime)
                continue
            }
            let segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            precondition(!segments.isEmpty && !segments.contains(""), "empty segment in field path \(key)")
            result.update(path: segments[...], with: update, commitTime: commitTime)
        }
        return result
    }

    private mutating func update(path: ArraySlice<String>, with update: FieldUpdate, commitTime: Timestamp) {
        let head = path.first!
        if path.count == 1 {
            self[head] = update.applied(to: self[head], commitTime: commitTime)
            return
        }
        // Deleting inside a map that is not there changes nothing (it does not make the map).
        if case .delete = update, self[head]?.mapValue == nil { return }
        var nested = self[head]?.mapValue ?? [:]
        nested.update(path: path.dropFirst(), with: update, commitTime: commitTime)
        self[head] = .map(nested)
    }
}
