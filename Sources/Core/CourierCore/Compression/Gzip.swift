internal import CZlib

/// gzip over zlib, with a bound on what decompression may produce.
public enum Gzip {
    /// Why gzip data could not be handled.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong.
        public enum Reason: Sendable, Equatable {
            /// The input is not valid gzip (or zlib) data.
            case corrupt
            /// Decompressing would produce more than the allowed bytes (a "zip bomb").
            case tooLarge
            /// zlib itself failed (out of memory).
            case internalError
        }

        /// What went wrong.
        public let reason: Reason
        /// zlib's message, when it gave one.
        public let message: String

        /// `gzip: message`.
        public var description: String { "gzip: \(message)" }
    }

    /// Compresses `data` into the gzip format.
    /// - Throws: `Gzip.Failure` if zlib cannot allocate its state.
    public static func compress(_ data: [UInt8], level: Int32 = 6) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard courier_deflate_init_gzip(&stream, level) == Z_OK else {
            throw Failure(reason: .internalError, message: "deflateInit failed")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        let rc: Int32 = data.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard rc == Z_STREAM_END else { throw Failure(reason: .internalError, message: "deflate failed (\(rc))") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether `data` starts with the gzip magic bytes.
    public static func isGzip(_ data: [UInt8]) -> Bool {
        data.count >= 2 && data[0] == 0x1F && data[1] == 0x8B
    }

    /// Decompresses gzip (or zlib) `data`, refusing to produce more than `limit` bytes.
    /// - Throws: `Gzip.Failure` with `.tooLarge` past the limit, `.corrupt` for bad data.
    public static func decompress(_ data: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard courier_inflate_init_auto(&stream) == Z_OK else {
            throw Failure(reason: .internalError, message: "inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var failure: Failure?
        data.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (rc, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let rc = inflate(&stream, Z_NO_FLUSH)
                    return (rc, out.count - Int(stream.avail_out))
                }
                if output.count + produced > limit {
                    failure = Failure(reason: .tooLarge, message: "decompressed data exceeds \(limit) bytes")
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                switch rc {
                case Z_STREAM_END where stream.avail_in > 0:
                    // Concatenated gzip members (RFC 1952 allows them) decode as one stream.
                    guard inflateReset(&stream) == Z_OK else {
                        failure = Failure(reason: .corrupt, message: "invalid gzip member")
                        return
                    }
                    continue
                case Z_STREAM_END:
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    failure = Failure(reason: .corrupt, message: "truncated gzip data")
                    return
                case Z_MEM_ERROR:
                    failure = Failure(reason: .internalError, message: "out of memory")
                    return
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "invalid gzip data"
                    failure = Failure(reason: .corrupt, message: message)
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
