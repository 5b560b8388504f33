import CourierCore
import Foundation

/// Encoded image bytes as kept on disk, with what revalidation needs.
public struct DiskEntry: Sendable, Equatable {
    /// The encoded image.
    public var data: [UInt8]
    /// The response's `ETag`.
    public var etag: String?
    /// The response's `Last-Modified`.
    public var lastModified: String?
    /// Until when (milliseconds since 1970) the bytes may be used without asking the server.
    public var freshUntilMilliseconds: Int64

    /// Creates an entry.
    public init(data: [UInt8], etag: String? = nil, lastModified: String? = nil, freshUntilMilliseconds: Int64) {
        self.data = data
        self.etag = etag
        self.lastModified = lastModified
        self.freshUntilMilliseconds = freshUntilMilliseconds
    }

    private static let magic = Array("CIMG1\n".utf8)

    /// `CIMG1\n`, a 4-byte big-endian header length, a JSON header, then the image bytes.
    func encoded() -> [UInt8] {
        var header: [String: JSONValue] = ["freshUntil": .int(freshUntilMilliseconds)]
        if let etag { header["etag"] = .string(etag) }
        if let lastModified { header["lastModified"] = .string(lastModified) }
        let json = JSONWriter.encode(.object(header))
        let length = UInt32(json.count)
        var out = Self.magic
        out += [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        out += json
        out += data
        return out
    }

    /// Reads what `encoded()` wrote; `nil` for a damaged file.
    init?(decoding bytes: [UInt8]) {
        let start = Self.magic.count + 4
        guard bytes.count >= start, bytes.starts(with: Self.magic) else { return nil }
        let length = bytes[Self.magic.count..<start].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= start + length,
            let header = (try? JSONParser.parse(Array(bytes[start..<start + length])))?.objectValue,
            let fresh = header["freshUntil"]?.intValue
        else { return nil }
        etag = header["etag"]?.stringValue
        lastModified = header["lastModified"]?.stringValue
        freshUntilMilliseconds = fresh
        data = Array(bytes[(start + length)...])
    }
}
