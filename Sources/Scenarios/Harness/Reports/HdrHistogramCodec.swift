import Foundation
import Histogram

/// HdrHistogram's standard compressed encoding (V2, as Java's `encodeIntoCompressedByteBuffer`,
/// C's `hdr_log_encode` and Python's `hdrh` write it), base64: the `HISTFAAA…` strings every
/// HdrHistogram implementation and log tool reads. Sweep files store their latency histograms so.
///
/// Layout (big-endian): cookie `0x1c849314`, compressed length, then a zlib stream of the
/// uncompressed encoding: cookie `0x1c849313`, payload length, normalizing index offset (0),
/// significant digits, lowest discernible value (Int64), highest trackable value (Int64), integer
/// to double conversion ratio (Double 1.0), then the counts up to the maximum's bucket as ZigZag
/// LEB128 varints (at most 9 bytes, the ninth carrying 8 bits), a run of k ≥ 2 empty buckets
/// written as −k.
package enum HdrHistogramCodec {
    /// Why a string is not an encoded histogram this build can use.
    package struct DecodeError: Error, CustomStringConvertible {
        /// What is wrong with the text.
        package var description: String
    }

    static let encodingCookie: UInt32 = 0x1c84_9313
    static let compressedEncodingCookie: UInt32 = 0x1c84_9314
    static let headerBytes = 40
    /// The layout every Rehearsal histogram has: values ≥ 1 (µs), 3 significant digits.
    static let lowestDiscernibleValue: UInt64 = 1
    static let significantDigits = SignificantDigits.three
    /// 2^(11−1): sub-buckets per half bucket at 3 digits (2000 → 2048 sub-buckets).
    static let subBucketHalfCountMagnitude = 10
    /// The largest highest trackable value accepted (as the histograms' own auto-resize bound).
    static let maxHighestTrackableValue = UInt64.max / 4
    /// Counts the widest accepted histogram has, so the largest payload it can inflate to.
    static var maxPayloadBytes: Int { headerBytes + 9 * countsLength(highestTrackableValue: maxHighestTrackableValue) }

    /// `histogram` in the standard compressed encoding, base64. Its highest trackable value is
    /// written as the top of the maximum's bucket (at least 2), not the auto-resized array's
    /// size, so equal distributions encode to equal strings however they were added up.
    package static func encode(_ histogram: Histogram<UInt64>) -> String {
        precondition(histogram.lowestDiscernibleValue == lowestDiscernibleValue && histogram.numberOfSignificantValueDigits == significantDigits,
                     "Rehearsal histograms have lowest value 1 and 3 significant digits")
        var payload: [UInt8] = []
        var nextIndex = 0
        if histogram.totalCount > 0 {
            for value in histogram.recordedValues() {
                let index = countsIndex(value.value)
                if index - nextIndex == 1 { putZigZag(0, into: &payload) } else if index > nextIndex { putZigZag(-Int64(index - nextIndex), into: &payload) }
                precondition(value.count <= UInt64(Int64.max), "a bucket count beyond Int64")
                putZigZag(Int64(value.count), into: &payload)
                nextIndex = index + 1
            }
        }
        let highest = Swift.max(2, histogram.totalCount > 0 ? histogram.max : 0)
        var inner: [UInt8] = []
        inner.reserveCapacity(headerBytes + payload.count)
        put(encodingCookie, into: &inner)
        put(UInt32(payload.count), into: &inner)
        put(UInt32(0), into: &inner)
        put(UInt32(significantDigits.rawValue), into: &inner)
        put(lowestDiscernibleValue, into: &inner)
        put(highest, into: &inner)
        put((1.0 as Double).bitPattern, into: &inner)
        inner += payload
        let compressed = Zlib.deflate(inner)
        var outer: [UInt8] = []
        put(compressedEncodingCookie, into: &outer)
        put(UInt32(compressed.count), into: &outer)
        outer += compressed
        return Data(outer).base64EncodedString()
    }

    /// The histogram `text` encodes (canonical: each bucket's count at the bucket's top), validated: base64, both cookies (V2, 9-byte words), lengths
    /// that match, a complete zlib stream, the layout Rehearsal's histograms have (lowest value
    /// 1, 3 significant digits, no normalizing offset, conversion ratio 1), a highest trackable
    /// value in 2…UInt64.max/4, every count inside that range and a total without overflow.
    package static func decode(_ text: String) throws(DecodeError) -> Histogram<UInt64> {
        func fail(_ reason: String) -> DecodeError { DecodeError(description: reason) }
        guard let data = Data(base64Encoded: text) else { throw fail("not base64") }
        let outer = [UInt8](data)
        guard outer.count >= 8 else { throw fail("\(outer.count) bytes: too short for an HdrHistogram encoding") }
        let cookie = read32(outer, at: 0)
        guard cookie == compressedEncodingCookie else {
            throw fail(String(format: "cookie 0x%08x is not HdrHistogram's V2 compressed encoding (0x1c849314)", cookie))
        }
        guard Int(read32(outer, at: 4)) == outer.count - 8 else {
            throw fail("the compressed length \(read32(outer, at: 4)) is not the \(outer.count - 8) bytes that follow")
        }
        let inner: [UInt8]
        do { inner = try Zlib.inflate(Array(outer[8...]), limit: maxPayloadBytes) } catch { throw fail(error.description) }
        guard inner.count >= headerBytes else { throw fail("the inflated encoding has \(inner.count) bytes, fewer than its 40-byte header") }
        guard read32(inner, at: 0) == encodingCookie else {
            throw fail(String(format: "inner cookie 0x%08x is not HdrHistogram's V2 encoding (0x1c849313)", read32(inner, at: 0)))
        }
        let payloadLength = Int(read32(inner, at: 4))
        guard payloadLength == inner.count - headerBytes else {
            throw fail("the payload length \(payloadLength) is not the \(inner.count - headerBytes) bytes that follow the header")
        }
        guard read32(inner, at: 8) == 0 else { throw fail("normalizing index offset \(read32(inner, at: 8)) (only 0 is supported)") }
        guard read32(inner, at: 12) == UInt32(significantDigits.rawValue) else {
            throw fail("\(read32(inner, at: 12)) significant digits (Rehearsal's histograms have 3)")
        }
        guard read64(inner, at: 16) == lowestDiscernibleValue else {
            throw fail("lowest discernible value \(read64(inner, at: 16)) (Rehearsal's histograms have 1)")
        }
        let highest = read64(inner, at: 24)
        guard highest >= 2, highest <= maxHighestTrackableValue else { throw fail("highest trackable value \(highest) is outside 2…\(maxHighestTrackableValue)") }
        guard Double(bitPattern: read64(inner, at: 32)) == 1.0 else { throw fail("integer-to-double conversion ratio is not 1") }
        let length = countsLength(highestTrackableValue: highest)
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: lowestDiscernibleValue, highestTrackableValue: highest, numberOfSignificantValueDigits: significantDigits)
        histogram.autoResize = true
        var position = headerBytes
        var index = 0
        var total: UInt64 = 0
        while position < inner.count {
            guard let (word, next) = readZigZag(inner, at: position) else { throw fail("a count at byte \(position) of the payload is truncated") }
            position = next
            if word < 0 {
                let run = word == Int64.min ? Int.max : Int(-word)
                guard run <= length - index else { throw fail("a run of \(run) empty buckets passes the end of the histogram's \(length) buckets") }
                index += run
                continue
            }
            guard index < length else { throw fail("a count lies beyond the histogram's \(length) buckets (highest trackable value \(highest))") }
            if word > 0 {
                let (sum, overflow) = total.addingReportingOverflow(UInt64(word))
                guard !overflow else { throw fail("the counts' total overflows") }
                total = sum
                guard histogram.record(highestEquivalentValue(atIndex: index), count: UInt64(word)) else { throw fail("bucket \(index) cannot be recorded") }
            }
            index += 1
        }
        return histogram
    }

    /// `histogram` as decoding its encoding gives it: every bucket's count recorded at the top
    /// of the bucket. The format keeps buckets, not the exact minimum and maximum recorded, and
    /// this library's `valueAtPercentile` clamps to those; a canonical histogram answers every
    /// percentile with its bucket's top value (as Java's `getValueAtPercentile` does) whether it
    /// was recorded here or read from a file, so a merged sweep equals one machine's.
    package static func canonical(_ histogram: Histogram<UInt64>) -> Histogram<UInt64> {
        var result = Histogram<UInt64>(numberOfSignificantValueDigits: significantDigits)
        guard histogram.totalCount > 0 else { return result }
        for bucket in histogram.recordedValues() { result.record(bucket.value, count: bucket.count) }
        return result
    }

    /// The length of the counts array of a histogram of Rehearsal's layout reaching `highestTrackableValue`.
    static func countsLength(highestTrackableValue: UInt64) -> Int {
        let subBucketCount = UInt64(1) << (subBucketHalfCountMagnitude + 1)
        var smallestUntrackable = subBucketCount
        var buckets = 1
        while smallestUntrackable <= highestTrackableValue {
            if smallestUntrackable > UInt64.max / 2 { buckets += 1; break }
            smallestUntrackable <<= 1
            buckets += 1
        }
        return (buckets + 1) << subBucketHalfCountMagnitude
    }

    /// The counts-array index of `value` (HdrHistogram's layout, unit magnitude 0).
    static func countsIndex(_ value: UInt64) -> Int {
        let halfCount = 1 << subBucketHalfCountMagnitude
        let mask = UInt64(2 * halfCount - 1)
        let bucket = (64 - (subBucketHalfCountMagnitude + 1)) - (value | mask).leadingZeroBitCount
        let subBucket = Int(value >> UInt64(bucket))
        return ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - halfCount
    }

    /// The highest value of bucket `index` (what a canonical histogram records for it).
    static func highestEquivalentValue(atIndex index: Int) -> UInt64 {
        let bucket = Swift.max(0, (index >> subBucketHalfCountMagnitude) - 1)
        return value(atIndex: index) + (UInt64(1) << UInt64(bucket)) - 1
    }

    /// The lowest value of bucket `index`.
    static func value(atIndex index: Int) -> UInt64 {
        let halfCount = 1 << subBucketHalfCountMagnitude
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = (index & (halfCount - 1)) + halfCount
        if bucket < 0 { subBucket -= halfCount; bucket = 0 }
        return UInt64(subBucket) << UInt64(bucket)
    }

    static func putZigZag(_ value: Int64, into bytes: inout [UInt8]) {
        var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            if rest < 0x80 { bytes.append(UInt8(rest)); return }
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The ZigZag LEB128 word at `position` and the position after it; nil when truncated.
    static func readZigZag(_ bytes: [UInt8], at position: Int) -> (Int64, Int)? {
        var result: UInt64 = 0
        var position = position
        for shift in stride(from: 0, to: 56, by: 7) {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return (decodeZigZag(result), position) }
        }
        guard position < bytes.count else { return nil }
        result |= UInt64(bytes[position]) << 56
        return (decodeZigZag(result), position + 1)
    }

    private static func decodeZigZag(_ value: UInt64) -> Int64 { Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))) }

    private static func put<T: FixedWidthInteger>(_ value: T, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func read32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func read64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
