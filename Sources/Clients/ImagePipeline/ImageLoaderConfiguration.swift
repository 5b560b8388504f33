import Foundation

/// How an `ImageLoader` caches, limits and decodes.
public struct ImageLoaderConfiguration: Sendable {
    /// Bytes of decoded bitmaps the memory cache keeps (default: a quarter of physical memory,
    /// at most 512 MB).
    public var memoryCostLimit = MemoryCache.defaultCostLimit
    /// Where encoded bytes are cached; `nil` turns the disk tier off.
    public var diskDirectory: URL? = DiskCache.defaultDirectory
    /// Bytes the disk cache keeps after a sweep (default 200 MB).
    public var diskByteLimit = 200 * 1024 * 1024
    /// Entries unused for longer are swept (default 30 days).
    public var diskAgeLimit: Duration = .seconds(30 * 24 * 3600)
    /// How long bytes are fresh when the server sends no `Cache-Control: max-age` (default 7 days).
    public var defaultFreshness: Duration = .seconds(7 * 24 * 3600)
    /// Bytes written to disk between two background sweeps (default 8 MB).
    public var sweepEveryBytes = 8 * 1024 * 1024
    /// Downloads at once (default 6).
    public var maximumConcurrentDownloads = 6
    /// Decodes at once (default: the number of cores).
    public var maximumConcurrentDecodes = ProcessInfo.processInfo.activeProcessorCount
    /// Size limits checked before decoding.
    public var decodingLimits = DecodingLimits()
    /// The decoder (default: the platform's, by format).
    public var decoder: any ImageDecoder = FormatDecoder()

    /// Creates the default configuration.
    public init() {}
}
