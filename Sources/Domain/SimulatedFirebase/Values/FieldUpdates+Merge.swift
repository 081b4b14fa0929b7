/// `setData(_:merge: true)` merges maps field by field, as the SDKs send it: the update mask names
/// every leaf of a map value (`{m: {k: 1}}` sets `m.k` and keeps `m`'s other fields); an empty map
/// sets the field itself to `{}`. An update (`updateData`) replaces a map it names whole.
extension FieldUpdates {
    /// The values the updates write: plain sets and the elements an `arrayUnion` adds.
    var writtenValues: [Value] {
        var values: [Value] = []
        for (_, update) in self {
            switch update {
            case .set(let value): values.append(value)
            case .arrayUnion(let elements): values.append(.array(elements))
            default: break
            }
        }
        return values
    }

    /// The updates with each non-empty map value set leaf by leaf (dotted paths).
    var mergingMapsLeafByLeaf: FieldUpdates {
        guard contains(where: { if case .set(.map(let fields)) = $0.update { !fields.isEmpty } else { false } }) else { return self }
        var pairs: [(String, FieldUpdate)] = []
        for (key, update) in self {
            if case .set(.map(let fields)) = update, !fields.isEmpty {
                Self.leaves(of: fields, under: key, into: &pairs)
            } else {
                pairs.append((key, update))
            }
        }
        return FieldUpdates(uniqueKeysWithValues: pairs)
    }

    private static func leaves(of fields: Fields, under prefix: String, into pairs: inout [(String, FieldUpdate)]) {
        for (key, value) in fields {
            if case .map(let nested) = value, !nested.isEmpty {
                leaves(of: nested, under: "\(prefix).\(key)", into: &pairs)
            } else {
                pairs.append(("\(prefix).\(key)", .set(value)))
            }
        }
    }
}
