/// A decoded bitmap: 8-bit RGBA rows, not premultiplied, `width * 4` bytes per row.
public struct DecodedImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes, row after row.
    public let pixels: [UInt8]
    /// The image's full size, from its header.
    public let sourceSize: PixelSize
    /// The size the codec actually produced before the final resampling (libjpeg's DCT scaling,
    /// libwebp's scaled decode): the largest bitmap that existed while decoding.
    public let decodedSize: PixelSize

    /// Creates an image.
    public init(width: Int, height: Int, pixels: [UInt8], sourceSize: PixelSize, decodedSize: PixelSize) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.sourceSize = sourceSize
        self.decodedSize = decodedSize
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// What it costs to keep in memory: `width * height * 4` bytes.
    public var cost: Int { width * height * 4 }

    /// The RGBA value at (`x`, `y`), or `nil` outside the image.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
