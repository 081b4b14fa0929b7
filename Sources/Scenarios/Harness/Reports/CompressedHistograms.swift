import Histogram

/// Histograms by operation that encode as HdrHistogram's compressed base64 text
/// (`HdrHistogramCodec`) instead of JSON count arrays: a worker's result line is about 1 KB, not
/// the ~100 KB that once cost the fuzz parent a third of a worker's CPU to decode. Decoding
/// validates each histogram and names the operation of a bad one.
@propertyWrapper
package struct CompressedHistograms: Sendable, Codable {
    /// The histograms by operation.
    package var wrappedValue: [String: Histogram<UInt64>]

    /// Wraps `wrappedValue`.
    package init(wrappedValue: [String: Histogram<UInt64>]) {
        self.wrappedValue = wrappedValue
    }

    /// Reads each histogram from its compressed text, naming the operation of a bad one.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        var histograms: [String: Histogram<UInt64>] = [:]
        for (operation, text) in try container.decode([String: String].self) {
            do { histograms[operation] = try HdrHistogramCodec.decode(text) } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "histogram of \(operation): \(error.description)")
            }
        }
        wrappedValue = histograms
    }

    /// Writes each histogram as compressed base64 text.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.mapValues(HdrHistogramCodec.encode))
    }
}
