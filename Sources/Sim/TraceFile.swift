/// A run's trace as JSON Lines: a header line (seed, strategy, outcome, hash, actor labels),
/// then one line per trace entry, in order.
public enum TraceFile {
    /// The JSON Lines text of `result`'s trace (record it with `recordsTrace: true`).
    public static func jsonLines<Output>(_ result: SimulationResult<Output>) -> String {
        let labels = result.actorLabels.map(TraceEvent.jsonString).joined(separator: ",")
        var text = "{\"seed\":\(result.configuration.seed),\"strategy\":\(TraceEvent.jsonString(result.configuration.strategy.description)),"
            + "\"outcome\":\(TraceEvent.jsonString(result.outcome.kind)),\"trace_hash\":\"\(result.traceHash)\","
            + "\"steps\":\(result.steps),\"virtual_ns\":\(result.virtualNanoseconds),\"actors\":[\(labels)]}\n"
        text.reserveCapacity(result.trace.count * 96)
        for event in result.trace {
            text += event.jsonLine
            text += "\n"
        }
        return text
    }

    /// Writes `result`'s trace to `path` atomically.
    public static func write<Output>(_ result: SimulationResult<Output>, to path: String) throws(AtomicFile.WriteError) {
        try AtomicFile.write(jsonLines(result), to: path)
    }
}
