import CourierCore

/// Where `FeatureFlags` fetches from, how often, and where it keeps its last-known-good copy.
public struct FeatureFlagsConfiguration: Sendable {
    /// The server, such as `https://flags.example.com`.
    public var serverURL: String
    /// The environment key whose definitions to fetch.
    public var environmentKey: String
    /// Where the last-known-good definitions live between launches.
    public var cacheStore: any FlagCacheStore
    /// The network seam.
    public var transport: any FlagTransport = URLSessionTransport(timeout: 15)
    /// The time source (a manual clock in tests).
    public var clock: any Clock = SystemClock()
    /// Fetches closer together than this (on launch, on foreground) are skipped.
    public var minimumFetchInterval: Duration = .seconds(300)
    /// The backoff after failed fetches.
    public var backoff = Backoff(base: .seconds(5), cap: .seconds(600))
    /// Definitions the server has not confirmed for this long evaluate with reason `STALE`.
    public var staleAfter: Duration = .seconds(7 * 86_400)
    /// The largest definitions body accepted (after gzip).
    public var maximumDocumentBytes = 4 << 20

    /// Creates a configuration.
    public init(serverURL: String, environmentKey: String, cacheStore: any FlagCacheStore) {
        self.serverURL = serverURL
        self.environmentKey = environmentKey
        self.cacheStore = cacheStore
    }
}
