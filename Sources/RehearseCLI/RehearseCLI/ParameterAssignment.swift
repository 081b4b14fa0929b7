/// One `--param name=value`.
struct ParameterAssignment: Hashable {
    /// The parameter's name.
    var name: String
    /// Its value.
    var value: Int

    /// Assignments as a dictionary (a later one of the same name wins).
    static func values(_ assignments: [ParameterAssignment]) -> [String: Int] {
        var values: [String: Int] = [:]
        for assignment in assignments { values[assignment.name] = assignment.value }
        return values
    }
}
