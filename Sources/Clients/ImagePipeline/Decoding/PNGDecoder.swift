internal import CPNG

/// PNG through libpng's simplified API (its own setjmp inside). PNG has no shrink-on-load, so
/// the full-size bitmap is decoded (bounded by `DecodingLimits.maximumDecodedPixels`) and then
/// area-averaged to the target.
public struct PNGDecoder: SingleFormatDecoder {
    /// Creates the decoder.
    public init() {}

    /// Reads PNG only.
    public static let format = ImageFormat.png

    /// Decodes `data` and shrinks it to fit `target`.
    /// - Throws: `ImagePipelineError`.
    public func decodeNonEmpty(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits)
        throws(ImagePipelineError) -> DecodedImage
    {
        var image = png_image()
        image.version = courier_png_image_version
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw Self.error(image) }
        let source = PixelSize(width: Int(image.width), height: Int(image.height))
        do throws(ImagePipelineError) {
            try limits.check(source: source)
            try limits.check(decoded: source)
        } catch {
            png_image_free(&image)
            throw error
        }
        image.format = courier_png_format_rgba
        let stride = source.width * 4
        var finished: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * source.height) { buffer, count in
            finished = png_image_finish_read(&image, nil, buffer.baseAddress, Int32(stride), nil)
            count = buffer.count
        }
        guard finished != 0 else { throw Self.error(image) }
        return Resampler.fit(pixels, size: source, to: source.fitting(in: target), source: source)
    }

    private static func error(_ image: png_image) -> ImagePipelineError {
        let text = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let truncated = text.contains("end") || text.contains("Read Error") || text.contains("not enough")
        return ImagePipelineError(truncated ? .truncatedImage : .corruptImage, "PNG: \(text)")
    }
}
