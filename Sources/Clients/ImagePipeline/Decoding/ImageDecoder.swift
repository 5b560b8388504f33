/// How large an image may be before decoding it is refused: checked against the header, before
/// any bitmap is allocated, so a decompression bomb costs nothing.
public struct DecodingLimits: Sendable, Equatable {
    /// The most pixels a source image may announce (default 256 M: 16,384 × 16,384).
    public var maximumSourcePixels: Int = 256 * 1024 * 1024
    /// The most pixels the codec may produce before resampling (default 48 M, about 192 MB):
    /// formats without shrink-on-load (PNG) decode at full size, so this bounds them.
    public var maximumDecodedPixels: Int = 48 * 1024 * 1024

    /// Creates the default limits.
    public init() {}

    func check(source: PixelSize) throws(ImagePipelineError) {
        guard source.width > 0, source.height > 0 else {
            throw ImagePipelineError(.corruptImage, "the header announces an empty image (\(source))")
        }
        guard source.area <= maximumSourcePixels else {
            throw ImagePipelineError(
                .imageTooLarge, "\(source) is over the limit of \(maximumSourcePixels) source pixels")
        }
    }

    func check(decoded: PixelSize) throws(ImagePipelineError) {
        guard decoded.area <= maximumDecodedPixels else {
            throw ImagePipelineError(
                .imageTooLarge, "decoding at \(decoded) is over the limit of \(maximumDecodedPixels) pixels")
        }
    }
}

/// Turns encoded bytes into a bitmap no larger than a target size, shrinking while decoding
/// where the format allows it.
public protocol ImageDecoder: Sendable {
    /// Whether this decoder reads `format`.
    func decodes(_ format: ImageFormat) -> Bool

    /// Decodes `data`, shrunk to fit in `target` (`nil`: full size).
    /// - Throws: `ImagePipelineError` (`corruptImage`, `truncatedImage`, `imageTooLarge`, …).
    func decode(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits) throws(ImagePipelineError)
        -> DecodedImage
}

/// A decoder for exactly one format over a C codec: it names its format and decodes bytes that are
/// known not to be empty; `decodes(_:)` and the empty-data check come from here.
public protocol SingleFormatDecoder: ImageDecoder {
    /// The one format this decoder reads.
    static var format: ImageFormat { get }

    /// Decodes `data` (not empty), shrunk to fit in `target` (`nil`: full size).
    /// - Throws: `ImagePipelineError` (`corruptImage`, `truncatedImage`, `imageTooLarge`, …).
    func decodeNonEmpty(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits)
        throws(ImagePipelineError) -> DecodedImage
}

extension SingleFormatDecoder {
    /// Whether `format` is this decoder's one format.
    public func decodes(_ format: ImageFormat) -> Bool { format == Self.format }

    /// Refuses empty data with `emptyData`, then decodes with `decodeNonEmpty`.
    /// - Throws: `ImagePipelineError`.
    public func decode(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits) throws(ImagePipelineError)
        -> DecodedImage
    {
        guard !data.isEmpty else { throw ImagePipelineError(.emptyData, "no bytes to decode") }
        return try decodeNonEmpty(data, fitting: target, limits: limits)
    }
}
