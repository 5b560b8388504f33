/// Shrinks RGBA bitmaps by averaging each output pixel's footprint (a box filter), the step
/// after a codec's own coarse shrink-on-load.
enum Resampler {
    /// `pixels` (at `size`) shrunk to `output`; returned as is when the sizes match.
    static func fit(_ pixels: [UInt8], size: PixelSize, to output: PixelSize, source: PixelSize) -> DecodedImage {
        guard output != size, output.width <= size.width, output.height <= size.height else {
            return DecodedImage(
                width: size.width, height: size.height, pixels: pixels, sourceSize: source, decodedSize: size)
        }
        let resized = shrink(pixels, from: size, to: output)
        return DecodedImage(
            width: output.width, height: output.height, pixels: resized, sourceSize: source, decodedSize: size)
    }

    /// The box-filtered bitmap.
    static func shrink(_ pixels: [UInt8], from size: PixelSize, to output: PixelSize) -> [UInt8] {
        let columns = spans(from: size.width, to: output.width)
        let rows = spans(from: size.height, to: output.height)
        let stride = size.width * 4
        return [UInt8](unsafeUninitializedCapacity: output.area * 4) { target, count in
            pixels.withUnsafeBufferPointer { source in
                var out = 0
                for (top, bottom) in rows {
                    for (left, right) in columns {
                        var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                        for y in top..<bottom {
                            var i = y * stride + left * 4
                            for _ in left..<right {
                                sum.0 &+= UInt32(source[i])
                                sum.1 &+= UInt32(source[i + 1])
                                sum.2 &+= UInt32(source[i + 2])
                                sum.3 &+= UInt32(source[i + 3])
                                i += 4
                            }
                        }
                        let n = UInt32((bottom - top) * (right - left))
                        let half = n / 2
                        target[out] = UInt8((sum.0 + half) / n)
                        target[out + 1] = UInt8((sum.1 + half) / n)
                        target[out + 2] = UInt8((sum.2 + half) / n)
                        target[out + 3] = UInt8((sum.3 + half) / n)
                        out += 4
                    }
                }
            }
            count = output.area * 4
        }
    }

    /// For each of `outputs` positions, the half-open range of `inputs` it averages (never empty).
    private static func spans(from inputs: Int, to outputs: Int) -> [(Int, Int)] {
        (0..<outputs).map { i in
            let start = i * inputs / outputs
            let end = max(start + 1, (i + 1) * inputs / outputs)
            return (start, min(end, inputs))
        }
    }
}
