/// JPEG through libjpeg-turbo, shrunk in the DCT domain: libjpeg decodes at 1/8, 2/8, … 8/8 of
/// full size, so a 4000×3000 photo for a 300-pixel thumbnail is decoded at 500×375 and never at
/// full size; the remaining step to the exact size is an area average.
public struct JPEGDecoder: SingleFormatDecoder {
    /// Creates the decoder.
    public init() {}

    /// Reads JPEG only.
    public static let format = ImageFormat.jpeg

    /// Decodes `data` at the smallest DCT scale that still covers `target`, then resamples.
    /// - Throws: `ImagePipelineError`.
    public func decodeNonEmpty(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits)
        throws(ImagePipelineError) -> DecodedImage
    {
        let result: Result<DecodedImage, ImagePipelineError> = data.withUnsafeBufferPointer { bytes in
            do throws(ImagePipelineError) {
                let decompressor = try JPEGDecompressor(bytes)
                let source = decompressor.sourceSize
                try limits.check(source: source)
                let output = source.fitting(in: target)
                var eighths = 1
                var scaled = decompressor.scale(eighths: eighths)
                while eighths < 8, scaled.width < output.width || scaled.height < output.height {
                    eighths += 1
                    scaled = decompressor.scale(eighths: eighths)
                }
                try limits.check(decoded: scaled)
                let pixels = try decompressor.decode(size: scaled)
                return .success(Resampler.fit(pixels, size: scaled, to: output, source: source))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
