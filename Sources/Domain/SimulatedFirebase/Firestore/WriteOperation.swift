/// One write to one document, as the client and admin SDKs express it.
public enum WriteOperation: Sendable, Hashable {
    /// Server `create()`: fails ALREADY_EXISTS if the document exists (MODEL_RULES §8).
    case create(Fields)
    /// `setData` without merge: replaces the document, last write wins (MODEL_RULES §8).
    case set(Fields)
    /// `setData(merge: true)`: applies the updates, creating the document if missing.
    case merge(FieldUpdates)
    /// `updateData`: applies the updates; fails NOT_FOUND if the document is missing.
    case update(FieldUpdates)
    case delete

    /// The admin SDK call that makes it (`create`, `set`, `merge`, `update`, `delete`).
    var name: String {
        switch self {
        case .create: "create"
        case .set: "set"
        case .merge: "merge"
        case .update: "update"
        case .delete: "delete"
        }
    }

    /// The document's fields after this write, or a typed error; `nil` means deleted. Arguments are
    /// checked before (`validateArguments(at:)`: by the document's write, and by a commit for all its writes).
    func apply(to before: Fields?, path: DocumentPath, commitTime: Timestamp) throws(BackendError) -> Fields? {
        switch self {
        case .create(let fields):
            if before != nil { throw .alreadyExists(path) }
            return fields.canonicalized
        case .set(let fields):
            return fields.canonicalized
        case .merge(let updates):
            return (before ?? [:]).applying(updates.mergingMapsLeafByLeaf, commitTime: commitTime)
        case .update(let updates):
            guard let before else { throw .notFound(path) }
            return before.applying(updates, commitTime: commitTime)
        case .delete:
            return nil
        }
    }
}

extension WriteOperation {
    /// INVALID_ARGUMENT for a write the server refuses whatever the document holds (it checks
    /// every write of a commit this way before any precondition): an id past Firestore's limits
    /// (`WriteLimits`), an array in an array, a reserved field name in a path; when `oneOfSeveral`
    /// writes of a commit write the document, a reserved name anywhere in what this one writes.
    /// Field names and nesting are judged on the document a commit leaves (`WriteLimits.check(_:)`,
    /// with its size).
    func validateArguments(at path: DocumentPath, oneOfSeveral: Bool = false) throws(BackendError) {
        try WriteLimits.check(path, deleting: self == .delete)
        switch self {
        case .create(let fields), .set(let fields):
            try Self.refuseNestedArrays(fields.values)
            if oneOfSeveral { try WriteLimits.refuseReservedNames(fields) }
        case .merge(let updates), .update(let updates):
            try Self.refuseNestedArrays(updates.writtenValues)
            for (field, update) in updates where oneOfSeveral || field.utf8.count >= 4 {
                try WriteLimits.refuseReservedNames(inPath: field)
                guard oneOfSeveral else { continue }
                switch update {
                case .set(let value): try WriteLimits.refuseReservedNames(value)
                case .arrayUnion(let elements): for element in elements { try WriteLimits.refuseReservedNames(element) }
                default: break
                }
            }
        case .delete: break
        }
    }

    /// The document the writes leave on `before` with their preconditions ignored (a create as a
    /// set, an update of a missing document as one of an empty document): what the emulator
    /// judges names and nesting on before it checks any precondition.
    static func ignoringPreconditions(_ writes: [WriteOperation], on before: Fields?, path: DocumentPath, commitTime: Timestamp) -> Fields? {
        var after = before
        for write in writes {
            let blind: WriteOperation
            switch write {
            case .create(let fields): blind = .set(fields)
            default: blind = write
            }
            after = (try? blind.apply(to: after ?? [:], path: path, commitTime: commitTime)) ?? after
        }
        return after
    }

    /// INVALID_ARGUMENT when a written value puts an array directly inside an array.
    static func refuseNestedArrays<S: Sequence>(_ values: S) throws(BackendError) where S.Element == Value {
        for value in values where value.nestsArrays { throw .invalidArgument("Cannot convert an array value in an array value.") }
    }

    /// The write as the device shows it before the server answers: a `serverTimestamp()` field
    /// reads null until the commit time is known (the SDKs' default `ServerTimestampBehavior.none`).
    var pendingEstimate: WriteOperation {
        switch self {
        case .merge(let updates): .merge(updates.serverTimestampsPending)
        case .update(let updates): .update(updates.serverTimestampsPending)
        case .create, .set, .delete: self
        }
    }
}
