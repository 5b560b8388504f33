import CourierCore

/// One event as the SDK stores and sends it, in Segment's message format.
public struct AnalyticsEvent: Sendable, Equatable {
    /// `track`, `screen`, `identify`, `group`, `alias`.
    public enum Kind: String, Sendable {
        /// An action.
        case track
        /// A screen view.
        case screen
        /// Who the user is.
        case identify
        /// A group the user belongs to.
        case group
        /// Links a previous id to the user id.
        case alias
    }

    /// The version of this payload's shape, so the collector can accept old SDKs for years.
    public static let schemaVersion = 1

    /// A random UUID; the collector's dedupe key, reused on every retry.
    public var messageId: String
    /// The kind.
    public var kind: Kind
    /// The event name (`track`) or screen name (`screen`).
    public var name: String?
    /// `properties` (track, screen) or `traits` (identify, group).
    public var properties: [String: JSONValue]
    /// When the call was made, milliseconds since 1970, on the device clock.
    public var timestamp: Int64
    /// The user, after `identify`.
    public var userId: String?
    /// The device's anonymous id, until `reset()`.
    public var anonymousId: String
    /// The group (`group`).
    public var groupId: String?
    /// The previous id (`alias`).
    public var previousId: String?
    /// `context`: app, os, device, locale, timezone, library, sessionId.
    public var context: [String: JSONValue]

    /// The Segment message.
    public var json: JSONValue {
        var message: [String: JSONValue] = [
            "type": .string(kind.rawValue),
            "messageId": .string(messageId),
            "timestamp": .string(Timestamp.format(milliseconds: timestamp)),
            "anonymousId": .string(anonymousId),
            "context": .object(context),
            "schemaVersion": .int(Int64(Self.schemaVersion)),
        ]
        if let userId { message["userId"] = .string(userId) }
        switch kind {
        case .track:
            message["event"] = .string(name ?? "")
            message["properties"] = .object(properties)
        case .screen:
            message["name"] = name.map(JSONValue.string) ?? .null
            message["properties"] = .object(properties)
        case .identify:
            message["traits"] = .object(properties)
        case .group:
            message["groupId"] = groupId.map(JSONValue.string) ?? .null
            message["traits"] = .object(properties)
        case .alias:
            message["previousId"] = previousId.map(JSONValue.string) ?? .null
        }
        return .object(message)
    }
}
