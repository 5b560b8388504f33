import Testing

@testable import ImagePipeline

@Suite("Decoders shrink while decoding")
struct DecoderTests {
    static let photo = ImageEncoder.pattern(width: 4000, height: 3000)

    @Test("A 4000×3000 JPEG for a 300-pixel box is decoded at 1/8 (500×375), never at full size")
    func jpegDecodesInTheDCTDomain() throws {
        let jpeg = try ImageEncoder.jpeg(Self.photo, quality: 80)
        let image = try JPEGDecoder().decode(jpeg, fitting: PixelSize(square: 300), limits: DecodingLimits())
        #expect(image.sourceSize == PixelSize(width: 4000, height: 3000))
        #expect(image.decodedSize == PixelSize(width: 500, height: 375))
        #expect(image.size == PixelSize(width: 300, height: 225))
        #expect(image.pixels.count == 300 * 225 * 4)
        // The bright square in the top-left quarter survives, and the bottom-right is dark blue-ish.
        let corner = try #require(image.pixel(x: 10, y: 10))
        #expect(corner.r > 200 && corner.g > 200 && corner.b > 200)
        let far = try #require(image.pixel(x: 290, y: 220))
        #expect(far.r > 200 && far.b < 120)
    }

    @Test(
        "The DCT scale is the smallest that still covers the target",
        arguments: [
            (1000, PixelSize(width: 1000, height: 750)), (600, PixelSize(width: 1000, height: 750)),
            (2500, PixelSize(width: 2500, height: 1875)), (4000, PixelSize(width: 4000, height: 3000)),
        ])
    func jpegScaleChoice(side: Int, decoded: PixelSize) throws {
        let jpeg = try ImageEncoder.jpeg(Self.photo, quality: 60)
        let image = try JPEGDecoder().decode(jpeg, fitting: PixelSize(square: side), limits: DecodingLimits())
        #expect(image.decodedSize == decoded)
        #expect(max(image.width, image.height) == min(side, 4000))
    }

    @Test("PNG and WebP decode to the target size with the right colours", arguments: [ImageFormat.png, .webp])
    func otherFormats(format: ImageFormat) throws {
        let source = ImageEncoder.pattern(width: 800, height: 600)
        let data = format == .png ? try ImageEncoder.png(source) : try ImageEncoder.webp(source, quality: 90)
        #expect(ImageFormat(sniffing: data) == format)
        let image = try FormatDecoder().decode(
            data, fitting: PixelSize(width: 200, height: 200), limits: DecodingLimits())
        #expect(image.size == PixelSize(width: 200, height: 150))
        #expect(image.sourceSize == PixelSize(width: 800, height: 600))
        if format == .webp { #expect(image.decodedSize == image.size) }
        let corner = try #require(image.pixel(x: 5, y: 5))
        #expect(corner.r > 200 && corner.g > 200 && corner.b > 200)
    }

    @Test("No target decodes at full size; a larger target never enlarges")
    func neverEnlarges() throws {
        let jpeg = try ImageEncoder.jpeg(ImageEncoder.pattern(width: 64, height: 48))
        let full = try JPEGDecoder().decode(jpeg, fitting: nil, limits: DecodingLimits())
        let big = try JPEGDecoder().decode(jpeg, fitting: PixelSize(square: 1000), limits: DecodingLimits())
        #expect(full.size == PixelSize(width: 64, height: 48))
        #expect(big.size == full.size)
    }
}
