import CZlib

/// The system zlib's one-shot compress and uncompress (zlib streams, RFC 1950), as HdrHistogram's
/// compressed encoding wraps its payload.
enum Zlib {
    /// Why a zlib stream could not be inflated.
    struct InflateError: Error, CustomStringConvertible {
        var description: String
    }

    /// `bytes` as a zlib stream at the default level (what Java's `Deflater()` and Python's
    /// `zlib.compress` write).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &length, source.baseAddress, uLong(source.count), Z_DEFAULT_COMPRESSION)
            }
        }
        // compressBound is enough for any input; anything else is a broken zlib.
        precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
        output.removeSubrange(Int(length)...)
        return output
    }

    /// The bytes of the zlib stream `bytes`, which must be complete, end exactly at the end of
    /// `bytes` and inflate to at most `limit` bytes.
    static func inflate(_ bytes: [UInt8], limit: Int) throws(InflateError) -> [UInt8] {
        guard !bytes.isEmpty else { throw InflateError(description: "the compressed payload is empty") }
        var output = [UInt8](repeating: 0, count: limit)
        var outputLength = uLong(limit)
        var consumed = uLong(bytes.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { source in
                uncompress2(out.baseAddress, &outputLength, source.baseAddress, &consumed)
            }
        }
        switch status {
        case Z_OK: break
        case Z_BUF_ERROR where outputLength == uLong(limit):
            throw InflateError(description: "the payload inflates to more than \(limit) bytes, or is truncated")
        case Z_BUF_ERROR: throw InflateError(description: "the zlib stream is truncated")
        case Z_DATA_ERROR: throw InflateError(description: "the zlib stream is corrupted")
        default: throw InflateError(description: "zlib uncompress failed with status \(status)")
        }
        guard consumed == uLong(bytes.count) else {
            throw InflateError(description: "\(bytes.count - Int(consumed)) bytes follow the end of the zlib stream")
        }
        output.removeSubrange(Int(outputLength)...)
        return output
    }
}
