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

    /// Creates an event (the SDK makes them; plugins and tests may too).
    public init(
        messageId: String, kind: Kind, name: String?, properties: [String: JSONValue], timestamp: Int64,
        userId: String?, anonymousId: String, groupId: String?, previousId: String?,
        context: [String: JSONValue]
    ) {
        self.messageId = messageId
        self.kind = kind
        self.name = name
        self.properties = properties
        self.timestamp = timestamp
        self.userId = userId
        self.anonymousId = anonymousId
        self.groupId = groupId
        self.previousId = previousId
        self.context = context
    }

    /// The message as JSON bytes. `encodedContext` is the already-encoded form of `context`, when
    /// the caller knows it is unchanged (the common case: no plugin touched it). With
    /// `omittingContext`, the message has no `context` member: the caller sends it once for the
    /// batch (Segment's batch-level `context`, which the collector adds to each message).
    package func encoded(encodedContext: [UInt8]? = nil, omittingContext: Bool = false) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + (encodedContext?.count ?? 256))
        // Per event on the SDK's hot path: member order means nothing to the collector.
        writer.sortsKeys = false
        // `,"name":` straight from the literal's bytes: no String is made per key.
        func key(_ name: StaticString) {
            writer.append(byte: UInt8(ascii: ","))
            writer.append(byte: UInt8(ascii: "\""))
            writer.append(raw: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            writer.append(byte: UInt8(ascii: "\""))
            writer.append(byte: UInt8(ascii: ":"))
        }
        writer.append(byte: UInt8(ascii: "{"))
        writer.write(string: "type")
        writer.append(byte: UInt8(ascii: ":"))
        writer.write(string: kind.rawValue)
        key("messageId"); writer.write(string: messageId)
        key("timestamp"); writer.write(string: Timestamp.format(milliseconds: timestamp))
        key("anonymousId"); writer.write(string: anonymousId)
        if let userId { key("userId"); writer.write(string: userId) }
        switch kind {
        case .track:
            key("event"); writer.write(string: name ?? "")
            key("properties"); writer.write(.object(properties))
        case .screen:
            key("name"); writer.write(name.map(JSONValue.string) ?? .null)
            key("properties"); writer.write(.object(properties))
        case .identify:
            key("traits"); writer.write(.object(properties))
        case .group:
            key("groupId"); writer.write(groupId.map(JSONValue.string) ?? .null)
            key("traits"); writer.write(.object(properties))
        case .alias:
            key("previousId"); writer.write(previousId.map(JSONValue.string) ?? .null)
        }
        if !omittingContext {
            key("context")
            if let encodedContext { writer.append(raw: encodedContext) } else { writer.write(.object(context)) }
        }
        key("schemaVersion"); writer.write(.int(Int64(Self.schemaVersion)))
        writer.append(byte: UInt8(ascii: "}"))
        return writer.bytes
    }

    /// The Segment message as a JSON value (tests and benchmarks compare against it).
    package var json: JSONValue {
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
