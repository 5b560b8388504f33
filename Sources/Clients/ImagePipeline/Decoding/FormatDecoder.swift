/// Picks a decoder by the bytes' format: the platform's default decoding path.
///
/// On Apple platforms `ImageIODecoder` (thumbnails from ImageIO) comes first; everywhere the
/// Debian-packaged codecs follow: libjpeg-turbo, libpng, libwebp.
public struct FormatDecoder: ImageDecoder {
    /// The decoders tried in order; the first that reads the format decodes.
    public let decoders: [any ImageDecoder]

    /// Creates the platform's default decoder.
    public init() {
        var decoders: [any ImageDecoder] = []
        #if canImport(ImageIO)
            decoders.append(ImageIODecoder())
        #endif
        decoders += [JPEGDecoder(), PNGDecoder(), WebPDecoder()]
        self.decoders = decoders
    }

    /// Creates a decoder over `decoders`, tried in order.
    public init(decoders: [any ImageDecoder]) { self.decoders = decoders }

    /// Whether any decoder reads `format`.
    public func decodes(_ format: ImageFormat) -> Bool { decoders.contains { $0.decodes(format) } }

    /// Sniffs the format and decodes with the first decoder that reads it.
    /// - Throws: `ImagePipelineError` (`emptyData`, `unsupportedFormat`, or the decoder's).
    public func decode(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits) throws(ImagePipelineError)
        -> DecodedImage
    {
        guard !data.isEmpty else { throw ImagePipelineError(.emptyData, "no bytes to decode") }
        guard let format = ImageFormat(sniffing: data) else {
            throw ImagePipelineError(.unsupportedFormat, "not a JPEG, PNG or WebP image")
        }
        guard let decoder = decoders.first(where: { $0.decodes(format) }) else {
            throw ImagePipelineError(.unsupportedFormat, "no decoder for \(format.rawValue)")
        }
        return try decoder.decode(data, fitting: target, limits: limits)
    }
}
