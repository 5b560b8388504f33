internal import CJPEGTurbo
internal import CPNG
internal import CWebP

/// Encodes RGBA bitmaps with the same libraries the decoders use: tests and the benchmark make
/// their images with it, and thumbnails can be written back as JPEG.
package enum ImageEncoder {
    /// JPEG at `quality` (1…100).
    package static func jpeg(_ image: DecodedImage, quality: Int = 85) throws(ImagePipelineError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let code = image.pixels.withUnsafeBufferPointer { pixels in
            courier_jpeg_encode(
                pixels.baseAddress, Int32(image.width), Int32(image.height), image.width * 4, Int32(quality), &output,
                &size, &message, message.count)
        }
        guard code == Int32(COURIER_JPEG_OK), let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagePipelineError(.corruptImage, "JPEG encode: \(text)")
        }
        defer { courier_jpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// PNG (RGBA, lossless).
    package static func png(_ image: DecodedImage) throws(ImagePipelineError) -> [UInt8] {
        var header = png_image()
        header.version = courier_png_image_version
        header.width = UInt32(image.width)
        header.height = UInt32(image.height)
        header.format = courier_png_format_rgba
        var size = 0
        let stride = Int32(image.width * 4)
        guard
            image.pixels.withUnsafeBytes({
                png_image_write_to_memory(&header, nil, &size, 0, $0.baseAddress, stride, nil)
            })
                != 0
        else { throw ImagePipelineError(.corruptImage, "PNG encode: size query failed") }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { target in
            image.pixels.withUnsafeBytes {
                png_image_write_to_memory(&header, target.baseAddress, &size, 0, $0.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw ImagePipelineError(.corruptImage, "PNG encode failed") }
        return Array(output.prefix(size))
    }

    /// Lossy WebP at `quality` (0…100).
    package static func webp(_ image: DecodedImage, quality: Float = 80) throws(ImagePipelineError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer {
            WebPEncodeRGBA(
                $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4), quality, &output)
        }
        guard size > 0, let output else { throw ImagePipelineError(.corruptImage, "WebP encode failed") }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A test pattern: a colour gradient with a bright square in the top-left quarter, so
    /// orientation and colour survive encoding.
    package static func pattern(width: Int, height: Int) -> DecodedImage {
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            var i = 0
            for y in 0..<height {
                let g = UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1))
                let inTop = y < height / 4
                for x in 0..<width {
                    let bright = inTop && x < width / 4
                    buffer[i] = bright ? 250 : UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1))
                    buffer[i + 1] = bright ? 250 : g
                    buffer[i + 2] = bright ? 250 : 64
                    buffer[i + 3] = 255
                    i += 4
                }
            }
            count = width * height * 4
        }
        let size = PixelSize(width: width, height: height)
        return DecodedImage(width: width, height: height, pixels: pixels, sourceSize: size, decodedSize: size)
    }
}
