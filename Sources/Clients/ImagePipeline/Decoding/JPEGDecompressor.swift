internal import CJPEGTurbo

/// Owns one libjpeg-turbo decompressor over bytes that the caller keeps alive for its lifetime.
final class JPEGDecompressor {
    private let handle: OpaquePointer
    /// The full size, from the header.
    let sourceSize: PixelSize

    /// Reads the header of `data`.
    /// - Throws: `ImagePipelineError` when it is not a readable JPEG.
    init(_ data: UnsafeBufferPointer<UInt8>) throws(ImagePipelineError) {
        var code: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        guard let base = data.baseAddress,
            let handle = courier_jpeg_open(base, data.count, &code, &message, message.count)
        else {
            throw Self.error(code: code, message: message)
        }
        self.handle = handle
        var width: Int32 = 0
        var height: Int32 = 0
        courier_jpeg_size(handle, &width, &height)
        sourceSize = PixelSize(width: Int(width), height: Int(height))
    }

    deinit { courier_jpeg_close(handle) }

    /// Sets DCT-domain scaling to `eighths`/8 and returns the size the decode will produce.
    func scale(eighths: Int) -> PixelSize {
        var width: Int32 = 0
        var height: Int32 = 0
        courier_jpeg_set_scale(handle, Int32(eighths), &width, &height)
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Decodes at the size `scale(eighths:)` returned into a new RGBA buffer.
    /// - Throws: `ImagePipelineError` for damaged or truncated data.
    func decode(size: PixelSize) throws(ImagePipelineError) -> [UInt8] {
        let stride = size.width * 4
        var message = [CChar](repeating: 0, count: 200)
        var code: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * size.height) { buffer, count in
            if let base = buffer.baseAddress {
                code = courier_jpeg_decode(handle, base, stride, &message, message.count)
            }
            count = buffer.count
        }
        guard code == Int32(COURIER_JPEG_OK) else { throw Self.error(code: code, message: message) }
        return pixels
    }

    private static func error(code: Int32, message: [CChar]) -> ImagePipelineError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if code == Int32(COURIER_JPEG_TRUNCATED) { return ImagePipelineError(.truncatedImage, "JPEG: \(text)") }
        return ImagePipelineError(.corruptImage, "JPEG: \(text)")
    }
}
