/// Binary search over a sorted array of document ids (the indexes' id lists).
enum SortedIds {
    /// The first position in `ids` whose id is not less than `id`.
    static func lowerBound(of id: String, in ids: [String]) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Inserts `id` at its place unless present.
    static func insert(_ id: String, into ids: inout [String]) {
        let position = lowerBound(of: id, in: ids)
        if position == ids.count || ids[position] != id { ids.insert(id, at: position) }
    }

    /// Removes `id` if present.
    static func remove(_ id: String, from ids: inout [String]) {
        let position = lowerBound(of: id, in: ids)
        if position < ids.count, ids[position] == id { ids.remove(at: position) }
    }
}
