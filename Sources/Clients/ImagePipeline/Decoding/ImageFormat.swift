/// An encoded image format, recognised by its first bytes (never by a URL's extension).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// PNG (`89 'PNG' 0D 0A 1A 0A`).
    case png
    /// WebP (`'RIFF' size 'WEBP'`).
    case webp

    /// The format of `data`, or `nil` when it is none of these.
    public init?(sniffing data: [UInt8]) {
        if data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF {
            self = .jpeg
        } else if data.count >= 8, data[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if data.count >= 12, data[0..<4].elementsEqual(Array("RIFF".utf8)),
            data[8..<12].elementsEqual(Array("WEBP".utf8))
        {
            self = .webp
        } else {
            return nil
        }
    }
}
