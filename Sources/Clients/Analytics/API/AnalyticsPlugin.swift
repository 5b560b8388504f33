/// An enrichment step: sees every event before it is stored and returns it changed, or `nil` to
/// drop it. Runs on the SDK's own executor, never on the caller's thread.
public struct AnalyticsPlugin: Sendable {
    /// A name for logs and drop counters.
    public let name: String
    let transform: @Sendable (AnalyticsEvent) -> AnalyticsEvent?

    /// Creates a plugin.
    public init(name: String, _ transform: @escaping @Sendable (AnalyticsEvent) -> AnalyticsEvent?) {
        self.name = name
        self.transform = transform
    }
}
