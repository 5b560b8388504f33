/// What a view asks for: an image URL shown at a pixel size, optionally transformed.
///
/// ```swift
/// let request = ImageRequest(url: "https://cdn.example.com/a.jpg", pixelSize: PixelSize(square: 300 * 3))
/// let image = try await loader.image(for: request)
/// ```
public struct ImageRequest: Hashable, Sendable {
    /// The image's URL.
    public var url: String
    /// The box the image is shrunk to fit, in pixels; `nil` keeps the full size.
    public var pixelSize: PixelSize?
    /// Names a transform applied after decoding (part of the memory key); empty for none.
    public var transformID: String
    /// How soon it is needed.
    public var priority: ImagePriority

    /// Creates a request.
    public init(url: String, pixelSize: PixelSize?, transformID: String = "", priority: ImagePriority = .normal) {
        self.url = url
        self.pixelSize = pixelSize
        self.transformID = transformID
        self.priority = priority
    }

    /// The memory cache's and the decode's key: URL + pixel size + transform.
    public var key: ImageKey { ImageKey(url: url, pixelSize: pixelSize, transformID: transformID) }
}

/// The identity of a decoded image: URL + target pixel size + transform id. Its `description` is
/// stable across processes (never `hashValue`, which Swift seeds per process).
public struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    /// The image's URL.
    public let url: String
    /// The target box, or `nil` for full size.
    public let pixelSize: PixelSize?
    /// The transform's id, empty for none.
    public let transformID: String

    /// `url @300x300 #transform`: the same in every process.
    public var description: String {
        "\(url) @\(pixelSize?.description ?? "original")" + (transformID.isEmpty ? "" : " #\(transformID)")
    }
}

/// Queue order for downloads and decodes; a queued request's priority can change.
public enum ImagePriority: Int, Sendable, Comparable, CaseIterable {
    /// Prefetching for cells not yet visible.
    case low = 0
    /// The default.
    case normal = 1
    /// A cell on screen now.
    case high = 2

    /// Lower priorities sort first.
    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
