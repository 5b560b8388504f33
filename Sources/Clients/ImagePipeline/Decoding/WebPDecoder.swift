internal import CWebP

/// WebP through libwebp, which scales while decoding (row by row), so the full-size bitmap never
/// exists.
public struct WebPDecoder: SingleFormatDecoder {
    /// Creates the decoder.
    public init() {}

    /// Reads WebP only.
    public static let format = ImageFormat.webp

    /// Decodes `data` straight at the size that fits `target`.
    /// - Throws: `ImagePipelineError`.
    public func decodeNonEmpty(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits)
        throws(ImagePipelineError) -> DecodedImage
    {
        var width: Int32 = 0
        var height: Int32 = 0
        guard data.withUnsafeBufferPointer({ WebPGetInfo($0.baseAddress, $0.count, &width, &height) }) != 0 else {
            throw ImagePipelineError(.corruptImage, "WebP: unreadable header")
        }
        let source = PixelSize(width: Int(width), height: Int(height))
        try limits.check(source: source)
        let output = source.fitting(in: target)
        try limits.check(decoded: output)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImagePipelineError(.unsupportedFormat, "WebP: library version mismatch")
        }
        if output != source {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(output.width)
            config.options.scaled_height = Int32(output.height)
        }
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        let stride = output.width * 4
        var status = VP8_STATUS_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * output.height) { buffer, count in
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = buffer.count
            status = data.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
            count = buffer.count
        }
        WebPFreeDecBuffer(&config.output)
        switch status {
        case VP8_STATUS_OK:
            return DecodedImage(
                width: output.width, height: output.height, pixels: pixels, sourceSize: source, decodedSize: output)
        case VP8_STATUS_NOT_ENOUGH_DATA:
            throw ImagePipelineError(.truncatedImage, "WebP: the data ended early")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw ImagePipelineError(.unsupportedFormat, "WebP: unsupported feature")
        default:
            throw ImagePipelineError(.corruptImage, "WebP: decode failed (status \(status.rawValue))")
        }
    }
}
