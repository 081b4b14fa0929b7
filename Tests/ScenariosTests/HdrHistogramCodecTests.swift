import ChildProcess
import FirebaseHarness
import Foundation
import Harness
import Histogram
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// HdrHistogram's standard compressed encoding (`HdrHistogramCodec`): round trips, a vector
/// written by the reference Python implementation, validation of corrupted encodings, and (when
/// python3 with `hdrh` is installed) the reference decoding what this build encodes.
@Suite struct HdrHistogramCodecTests {
    init() { BuiltInScenarios.register() }

    /// `(value, count)` pairs recorded into the known vector below.
    static let vectorRecordings: [(UInt64, UInt64)] = [(1, 3), (2, 1), (1000, 5), (2047, 2), (2048, 7), (5000, 1), (1_000_000, 4), (3_599_999_999, 1)]
    /// `scripts/hdrh-crosscheck.py encode 1:3 2:1 1000:5 2047:2 2048:7 5000:1 1000000:4 3599999999:1`
    /// with hdrhistogram 0.10.8 from PyPI (lowest 1, highest 3,600,000,000, 3 digits).
    static let pythonVector = "HISTFAAAADR4nJNpmSzMwMAgwgABzFCaEURcm7yEwf4DVICN6SQ/12oBFr6Dwky/qzgW72FkAgDg8QoI"

    static func histogram(_ recordings: [(UInt64, UInt64)]) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        for (value, count) in recordings { histogram.record(value, count: count) }
        return histogram
    }

    static func buckets(_ histogram: Histogram<UInt64>) -> [[UInt64]] {
        histogram.totalCount == 0 ? [] : histogram.recordedValues().map { [$0.value, $0.count] }
    }

    /// Seeded recordings spanning microseconds to hours, with repeats.
    static func randomRecordings(seed: UInt64, count: Int) -> [(UInt64, UInt64)] {
        var random = SimRandom(seed: seed)
        return (0..<count).map { _ in
            let magnitude = random.below(36)
            return (1 + UInt64(random.below(1 << 20)) << UInt64(magnitude / 2), UInt64(1 + random.below(3)))
        }
    }

    @Test(arguments: [0, 1, 2, 3, 40, 2_000])
    func roundTripKeepsEveryBucket(size: Int) throws {
        let original = Self.histogram(Self.randomRecordings(seed: UInt64(size) + 7, count: size))
        let text = HdrHistogramCodec.encode(original)
        #expect(text.hasPrefix("HISTFAAA"))
        let decoded = try HdrHistogramCodec.decode(text)
        #expect(Self.buckets(decoded) == Self.buckets(original))
        #expect(decoded.totalCount == original.totalCount)
        // The format keeps buckets: max (a bucket's top), the lowest bucket and the mean survive;
        // percentiles are those of the canonical histogram (each at its bucket's top).
        let canonical = HdrHistogramCodec.canonical(original)
        #expect(Self.buckets(canonical) == Self.buckets(original))
        if original.totalCount > 0 {
            #expect(decoded.max == original.max && decoded.minNonZero == original.minNonZero && decoded.mean == original.mean)
            #expect(canonical.max == original.max && canonical.mean == original.mean)
            for percentile in [0.0, 50, 90, 99, 99.9, 100] {
                #expect(decoded.valueAtPercentile(percentile) == canonical.valueAtPercentile(percentile))
                #expect(decoded.valueAtPercentile(percentile) == original.highestEquivalentForValue(original.valueAtPercentile(percentile)))
            }
        }
        #expect(decoded == original && decoded == canonical)
        #expect(HdrHistogramCodec.encode(canonical) == text)
        #expect(HdrHistogramCodec.encode(decoded) == text, "re-encoding a decoded histogram changes it")
    }

    /// Auto-resize leaves a different array size depending on the order of records and adds
    /// (so merged shards could differ from one machine in the raw JSON); the
    /// encoding depends on the distribution only.
    @Test func equalDistributionsEncodeEquallyWhateverTheirHistory() {
        let recordings = Self.randomRecordings(seed: 3, count: 300)
        let forward = Self.histogram(recordings)
        var halves = Self.histogram(Array(recordings[150...]))
        halves.add(Self.histogram(Array(recordings[..<150])))
        var grown = Self.histogram([(1 << 40, 1)])
        grown.reset()
        grown.add(forward)
        #expect(HdrHistogramCodec.encode(forward) == HdrHistogramCodec.encode(halves))
        #expect(HdrHistogramCodec.encode(forward) == HdrHistogramCodec.encode(grown))
    }

    /// The reference implementation's encoding decodes to the same buckets as recording the same
    /// values here: same layout, same varints, same zlib framing.
    @Test func decodesTheReferenceImplementationsVector() throws {
        let decoded = try HdrHistogramCodec.decode(Self.pythonVector)
        let expected = Self.histogram(Self.vectorRecordings)
        #expect(Self.buckets(decoded) == Self.buckets(expected))
        #expect(decoded.totalCount == 24 && decoded.max == expected.max && decoded.valueAtPercentile(50) == 2049)
        #expect(try HdrHistogramCodec.decode(HdrHistogramCodec.encode(decoded)) == expected)
    }

    /// Every corruption is refused with its reason (a sweep file names it), never a trap.
    @Test func corruptedEncodingsAreRefusedWithAReason() throws {
        let good = [UInt8](try #require(Data(base64Encoded: HdrHistogramCodec.encode(Self.histogram(Self.vectorRecordings)))))
        func variant(_ change: (inout [UInt8]) -> Void) -> String { var copy = good; change(&copy); return Data(copy).base64EncodedString() }
        let cases: [(String, String)] = [
            ("*not base64*", "not base64"), ("", "too short"), (variant { $0[3] = 0x13 }, "cookie 0x1c849313"),
            (variant { $0[7] &+= 1 }, "compressed length"), (variant { $0.removeLast(4) }, "compressed length"),
            (variant { $0 += [1, 2] }, "compressed length"), (variant { $0[12] ^= 0x55 }, "zlib stream"),
            (variant { $0[0] = 0x1c; $0[1] = 0x84; $0[2] = 0x93; $0[3] = 0x12 }, "not HdrHistogram's V2 compressed encoding"),
        ]
        for (text, reason) in cases {
            #expect { _ = try HdrHistogramCodec.decode(text) } throws: { error in
                "\(error)".contains(reason)
            }
        }
        // Valid encodings of layouts Rehearsal's histograms never have (written by the reference
        // implementation, one value 5 each): 2 digits, highest 2^62, lowest discernible value 2.
        let layouts = [
            ("HISTFAAAACB4nJNpmSzMwMDAxAABMJoRTPI7Odh/gAhwMgEARecDFw==", "2 significant digits"),
            ("HISTFAAAAB54nJNpmSzMwMDAxAABzFCa0QHKsP8AoTmZAEPnAsc=", "highest trackable value 4611686018427387904"),
            ("HISTFAAAAB94nJNpmSzMwMDAxAABzFAawud3crD/AJVgAgBGCQMT", "lowest discernible value 2"),
        ]
        for (text, reason) in layouts {
            #expect { _ = try HdrHistogramCodec.decode(text) } throws: { "\($0)".contains(reason) }
        }
    }

    /// The reference implementation (python3 `hdrh`) decodes this build's encodings to the same
    /// buckets, percentiles, minimum and maximum. Skipped when python3 or `hdrh` is absent.
    @Test(.enabled(if: HdrHistogramCodecTests.pythonHdrhAvailable, "python3 with hdrh (pip install hdrhistogram) is not installed"))
    func referenceImplementationDecodesOurEncoding() throws {
        for (seed, size) in [(1, 1), (2, 50), (3, 3_000)] as [(UInt64, Int)] {
            let histogram = HdrHistogramCodec.canonical(Self.histogram(Self.randomRecordings(seed: seed, count: size)))
            let output = try Self.python(["decode", HdrHistogramCodec.encode(histogram)])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let recorded = (object["recorded"] as? [[NSNumber]])?.map { $0.map(\.uint64Value) }
            #expect(recorded == Self.buckets(histogram), "seed \(seed)")
            #expect((object["total"] as? NSNumber)?.uint64Value == histogram.totalCount)
            #expect((object["max"] as? NSNumber)?.uint64Value == histogram.max)
            #expect((object["min"] as? NSNumber)?.uint64Value == histogram.minNonZero)
            let percentiles = try #require(object["percentiles"] as? [String: NSNumber])
                for (key, percentile) in [("50", 50.0), ("90", 90), ("99", 99), ("99.9", 99.9), ("100", 100)] {
                #expect(percentiles[key]?.uint64Value == histogram.valueAtPercentile(percentile), "p\(key) of seed \(seed)")
            }
        }
        // And the reference encoding of the vector's recordings is what we decode.
        let pairs = Self.vectorRecordings.map { "\($0.0):\($0.1)" }
        let encoded = try Self.python(["encode"] + pairs).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Self.buckets(try HdrHistogramCodec.decode(encoded)) == Self.buckets(Self.histogram(Self.vectorRecordings)))
    }

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/hdrh-crosscheck.py").path
    }

    static let pythonHdrhAvailable: Bool = {
        guard let output = try? run(["/usr/bin/env", "python3", "-c", "import hdrh.histogram; print('ok')"]) else { return false }
        return output.status == 0 && output.text.hasPrefix("ok")
    }()

    static func python(_ arguments: [String]) throws -> String {
        let output = try run(["/usr/bin/env", "python3", script] + arguments)
        guard output.status == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "hdrh-crosscheck.py failed: \(output.text)"]) }
        return output.text
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let run = try ChildProcess.run(arguments[0], Array(arguments.dropFirst()), mergeErrorIntoOutput: true)
        return (run.signal == nil ? run.status : 128 + run.status, run.output)
    }

    @Test("a sweep seed's histograms, sized up front, encode as growing one sample at a time did")
    func seedHistogramsEncodeAsAutoResized() {
        var random = SimRandom(seed: 11)
        var samples: [LatencySample] = []
        for step in 0..<3_000 {
            let latency = UInt64(random.below(4)) == 0 ? UInt64(random.below(7_200_000_000_000)) : UInt64(random.below(50_000_000))
            let end: UInt64 = 10_000_000_000_000
            samples.append(LatencySample(operation: ["a", "b", "c"][step % 3], user: "u", intendedStartNanoseconds: end - latency, endNanoseconds: end, step: UInt64(step)))
        }
        samples.append(LatencySample(operation: "tiny", user: "u", intendedStartNanoseconds: 5, endNanoseconds: 5, step: 0))
        // The oracle: one auto-resizing histogram per operation, grown sample by sample.
        var grown: [String: Histogram<UInt64>] = [:]
        for sample in samples {
            _ = grown[sample.operation, default: Histogram<UInt64>(numberOfSignificantValueDigits: .three)].record(max(1, sample.latencyNanoseconds / 1_000))
        }
        let sized = SweepSeedResult.histograms(samples)
        #expect(sized.keys.sorted() == grown.keys.sorted())
        for operation in grown.keys.sorted() {
            #expect(HdrHistogramCodec.encode(sized[operation]!) == HdrHistogramCodec.encode(grown[operation]!), "\(operation)")
            #expect(Self.buckets(sized[operation]!) == Self.buckets(grown[operation]!), "\(operation)")
        }
    }
}
