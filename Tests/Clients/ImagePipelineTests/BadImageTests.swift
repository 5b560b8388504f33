import Testing

@testable import ImagePipeline

@Suite("Bad images are refused with a typed error")
struct BadImageTests {
    static let source = ImageEncoder.pattern(width: 320, height: 240)

    static func encoded(_ format: ImageFormat) throws -> [UInt8] {
        switch format {
        case .jpeg: try ImageEncoder.jpeg(source)
        case .png: try ImageEncoder.png(source)
        case .webp: try ImageEncoder.webp(source)
        }
    }

    func decode(_ data: [UInt8]) -> ImagePipelineError.Code? {
        do {
            _ = try FormatDecoder().decode(data, fitting: PixelSize(square: 100), limits: DecodingLimits())
            return nil
        } catch {
            return error.code
        }
    }

    @Test("Zero bytes")
    func empty() {
        #expect(decode([]) == .emptyData)
        #expect(throws: ImagePipelineError.self) {
            try JPEGDecoder().decode([], fitting: nil, limits: DecodingLimits())
        }
    }

    @Test("Bytes that are no image (an HTML page)")
    func notAnImage() {
        #expect(decode(Array("<html><body>404</body></html>".utf8)) == .unsupportedFormat)
    }

    @Test("A truncated file of each format", arguments: ImageFormat.allCases)
    func truncated(format: ImageFormat) throws {
        let data = try Self.encoded(format)
        let code = decode(Array(data.prefix(data.count / 2)))
        #expect(code == .truncatedImage || code == .corruptImage, "\(format): \(String(describing: code))")
    }

    @Test("Only a header, with the body missing", arguments: ImageFormat.allCases)
    func headerOnly(format: ImageFormat) throws {
        let data = try Self.encoded(format)
        #expect(decode(Array(data.prefix(40))) != nil)
    }

    @Test("Garbage after a valid signature", arguments: ImageFormat.allCases)
    func corrupt(format: ImageFormat) throws {
        var data = try Self.encoded(format)
        for i in stride(from: 20, to: data.count - 2, by: 7) { data[i] ^= 0x5A }
        let code = decode(data)
        #expect(code == .corruptImage || code == .truncatedImage || code == .unsupportedFormat)
    }

    @Test("A JPEG header announcing 50,000 × 50,000 is refused before any bitmap is allocated")
    func jpegBomb() throws {
        var data = try Self.encoded(.jpeg)
        let sof = try #require((0..<(data.count - 9)).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        // SOF0: marker, length (2), precision (1), height (2), width (2).
        data[sof + 5] = 0xC3
        data[sof + 6] = 0x50
        data[sof + 7] = 0xC3
        data[sof + 8] = 0x50
        #expect(decode(data) == .imageTooLarge)
    }

    @Test("A PNG header announcing 50,000 × 50,000 (with a valid CRC) is refused")
    func pngBomb() throws {
        var data = try Self.encoded(.png)
        // IHDR data starts at 16: width (4), height (4), …; its CRC covers type + 13 data bytes.
        for offset in [16, 20] {
            data[offset..<offset + 4] = [0x00, 0x00, 0xC3, 0x50]
        }
        let crc = CRC32.checksum(data[12..<29])
        data[29..<33] = [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        #expect(decode(data) == .imageTooLarge)
    }

    @Test("A source within limits but a decoded bitmap over them is refused")
    func decodedLimit() throws {
        var limits = DecodingLimits()
        limits.maximumDecodedPixels = 100 * 100
        let data = try Self.encoded(.png)
        #expect(throws: ImagePipelineError.self) { try PNGDecoder().decode(data, fitting: nil, limits: limits) }
        // The same JPEG fits when it can shrink on load below the limit.
        let jpeg = try Self.encoded(.jpeg)
        let image = try JPEGDecoder().decode(jpeg, fitting: PixelSize(square: 40), limits: limits)
        #expect(image.decodedSize == PixelSize(width: 40, height: 30))
    }
}

/// PNG's chunk checksum, to forge a header in a test.
enum CRC32 {
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
