/// A size in pixels (not points): what a view shows times its screen scale.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// Creates a size; negative values count as 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// A square box, such as a 300-pixel thumbnail.
    public init(square side: Int) { self.init(width: side, height: side) }

    /// `300x200`.
    public var description: String { "\(width)x\(height)" }

    /// Pixels in the area.
    public var area: Int { width.multipliedReportingOverflow(by: height).overflow ? Int.max : width * height }

    /// The largest size with this size's aspect ratio that fits in `box`, never larger than this
    /// size (images are shrunk, never enlarged) and at least 1×1.
    public func fitting(in box: PixelSize?) -> PixelSize {
        guard let box, box.width > 0, box.height > 0, width > 0, height > 0 else { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height), 1)
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }
}
