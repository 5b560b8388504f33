#if canImport(ImageIO)
    import CoreGraphics
    import Foundation
    import ImageIO

    /// Apple platforms' decoder: ImageIO's thumbnail API, which shrinks while decoding (JPEG by
    /// DCT scaling, like libjpeg-turbo) and applies the EXIF orientation. Pixels come back as
    /// premultiplied RGBA, the only 8-bit RGBA layout Core Graphics draws into.
    public struct ImageIODecoder: ImageDecoder {
        /// Creates the decoder.
        public init() {}

        /// ImageIO reads JPEG, PNG and WebP.
        public func decodes(_ format: ImageFormat) -> Bool { true }

        /// Decodes a thumbnail no larger than `target`.
        /// - Throws: `ImagePipelineError`.
        public func decode(_ data: [UInt8], fitting target: PixelSize?, limits: DecodingLimits)
            throws(ImagePipelineError) -> DecodedImage
        {
            guard !data.isEmpty else { throw ImagePipelineError(.emptyData, "no bytes to decode") }
            let noCache = [kCGImageSourceShouldCache: false] as CFDictionary
            guard let source = CGImageSourceCreateWithData(Data(data) as CFData, noCache),
                let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, noCache) as? [CFString: Any],
                let width = properties[kCGImagePropertyPixelWidth] as? Int,
                let height = properties[kCGImagePropertyPixelHeight] as? Int
            else { throw ImagePipelineError(.corruptImage, "ImageIO: unreadable header") }
            let sourceSize = PixelSize(width: width, height: height)
            try limits.check(source: sourceSize)
            let output = sourceSize.fitting(in: target)
            try limits.check(decoded: output)
            let options =
                [
                    kCGImageSourceCreateThumbnailFromImageAlways: true,
                    kCGImageSourceShouldCacheImmediately: true,
                    kCGImageSourceCreateThumbnailWithTransform: true,
                    kCGImageSourceThumbnailMaxPixelSize: max(output.width, output.height),
                ] as [CFString: Any] as CFDictionary
            guard let thumbnail = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else {
                throw ImagePipelineError(.corruptImage, "ImageIO: the image could not be decoded")
            }
            let size = PixelSize(width: thumbnail.width, height: thumbnail.height)
            var pixels = [UInt8](repeating: 0, count: size.area * 4)
            let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress, width: size.width, height: size.height, bitsPerComponent: 8,
                        bytesPerRow: size.width * 4, space: CGColorSpaceCreateDeviceRGB(),
                        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
                else { return false }
                context.draw(thumbnail, in: CGRect(x: 0, y: 0, width: size.width, height: size.height))
                return true
            }
            guard drawn else { throw ImagePipelineError(.corruptImage, "ImageIO: no bitmap context") }
            return DecodedImage(
                width: size.width, height: size.height, pixels: pixels, sourceSize: sourceSize, decodedSize: size)
        }
    }
#endif
