/// One `--fault name=probability`.
struct FaultAssignment: Hashable {
    /// The knob's name.
    var name: String
    /// Its rate.
    var rate: Double

    /// Assignments as a dictionary (a later one of the same name wins).
    static func rates(_ assignments: [FaultAssignment]) -> [String: Double] {
        var rates: [String: Double] = [:]
        for assignment in assignments { rates[assignment.name] = assignment.rate }
        return rates
    }
}
