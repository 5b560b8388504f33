import CourierCore
import Foundation
import Synchronization

/// The last-known-good definitions as the client keeps them between launches: the active set
/// and the fetched one waiting for activation.
public struct FlagCache: Sendable, Equatable {
    /// One stored document.
    public struct Entry: Sendable, Equatable {
        /// The document's JSON.
        public var document: JSONValue
        /// The server's `ETag`.
        public var etag: String?
        /// When the server last confirmed it, in milliseconds since 1970.
        public var fetchedAtMilliseconds: Int64

        /// Creates an entry.
        public init(document: JSONValue, etag: String?, fetchedAtMilliseconds: Int64) {
            self.document = document
            self.etag = etag
            self.fetchedAtMilliseconds = fetchedAtMilliseconds
        }
    }

    /// What the app was using.
    public var active: Entry?
    /// Fetched, not yet activated: becomes active at the next launch.
    public var pending: Entry?

    /// Creates a cache.
    public init(active: Entry? = nil, pending: Entry? = nil) {
        self.active = active
        self.pending = pending
    }
}

/// Where the client keeps its last-known-good definitions.
public protocol FlagCacheStore: Sendable {
    /// The stored cache, or `nil` when there is none or it cannot be read.
    func load() -> FlagCache?
    /// Replaces the stored cache.
    /// - Throws: when it cannot be written.
    func save(_ cache: FlagCache) throws
}

/// A JSON file, replaced atomically on each save.
public struct FileFlagCacheStore: FlagCacheStore {
    /// The file's path.
    public let path: String

    /// Creates a store at `path` (its folder is created when needed).
    public init(path: String) { self.path = path }

    /// Reads the file; a missing or unreadable file is no cache.
    public func load() -> FlagCache? {
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONParser.parse([UInt8](data))
        else { return nil }
        return FlagCache(active: Self.entry(json["active"]), pending: Self.entry(json["pending"]))
    }

    /// Writes the file atomically.
    public func save(_ cache: FlagCache) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let json: JSONValue = ["active": Self.json(cache.active), "pending": Self.json(cache.pending)]
        try Data(JSONWriter.encode(json)).write(to: url, options: .atomic)
    }

    private static func json(_ entry: FlagCache.Entry?) -> JSONValue {
        guard let entry else { return .null }
        return [
            "document": entry.document, "etag": entry.etag.map(JSONValue.string) ?? .null,
            "fetchedAt": .int(entry.fetchedAtMilliseconds),
        ]
    }

    private static func entry(_ json: JSONValue?) -> FlagCache.Entry? {
        guard let json, let document = json["document"], !document.isNull,
            let fetchedAt = json["fetchedAt"]?.intValue
        else { return nil }
        return FlagCache.Entry(document: document, etag: json["etag"]?.stringValue, fetchedAtMilliseconds: fetchedAt)
    }
}

/// A cache in memory: survives a `FeatureFlags` instance, not the process.
public final class InMemoryFlagCacheStore: FlagCacheStore {
    private let cache = Mutex<FlagCache?>(nil)

    /// Creates an empty store.
    public init() {}

    /// The cache last saved.
    public func load() -> FlagCache? { cache.withLock { $0 } }

    /// Keeps `cache`.
    public func save(_ cache: FlagCache) { self.cache.withLock { $0 = cache } }
}
