import CourierCore

/// Every flag and segment of one environment, as `GET /v1/flags/{envKey}` serves it.
public struct FlagDocument: Sendable {
    /// The environment key.
    public let environment: String
    /// Grows by one with every change on the server.
    public let version: Int64
    /// Flags by key.
    public let flags: [String: FlagDefinition]
    /// Segments by key.
    public let segments: [String: Segment]
    /// The document as JSON.
    public let json: JSONValue

    /// Flags whose kill switch is on.
    public var disabledKeys: Set<String> { Set(flags.values.lazy.filter { !$0.enabled }.map(\.key)) }
}

extension FlagDocument {
    /// An empty document.
    public init(environment: String, version: Int64 = 0) {
        self.init(
            environment: environment, version: version, flags: [:], segments: [:],
            json: ["environment": .string(environment), "version": .int(version), "flags": [], "segments": []])
    }
}
