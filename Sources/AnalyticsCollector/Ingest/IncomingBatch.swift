import CourierCore

/// Reads a request body in Segment's format and turns it into messages ready to store: checks
/// the limits and fields, merges the batch's `context` and `integrations` into each message, and
/// corrects the client's clock skew.
public struct IncomingBatch: Sendable {
    /// The write key the body names (`writeKey` member), if any.
    public let bodyWriteKey: String?
    /// The messages, validated but not yet bound to a write key and time.
    let messages: [[String: JSONValue]]
    /// The batch's `sentAt` (milliseconds) when present.
    let sentAt: Int64?

    /// Parses and validates a body.
    /// - Parameters:
    ///   - body: the decompressed request body.
    ///   - singleType: `nil` for `/v1/batch`; the message type for `/v1/track` and the like.
    ///   - configuration: the limits.
    /// - Throws: `CollectorError` with status 400 or 413.
    public init(body: [UInt8], singleType: MessageType?, configuration: CollectorConfiguration) throws(CollectorError) {
        let byteLimit = singleType == nil ? configuration.maximumBatchBytes : configuration.maximumEventBytes
        if body.count > byteLimit {
            let code: CollectorError.Code = singleType == nil ? .batchTooLarge : .eventTooLarge
            throw CollectorError(code, "body is \(body.count) bytes; the limit is \(byteLimit)", status: 413)
        }
        var sizes: [Int] = []
        let document: JSONValue
        do {
            document = try JSONParser.parse(body, elementSizesOf: "batch", into: &sizes)
        } catch {
            throw CollectorError(.invalidJSON, "invalid JSON: \(error)", status: 400)
        }
        guard case .object(var top) = document else {
            throw CollectorError(.invalidRequest, "the body must be a JSON object", status: 400)
        }
        bodyWriteKey = top["writeKey"]?.stringValue
        top["writeKey"] = nil
        let sentAt = try Self.timestamp(top["sentAt"], field: "sentAt")
        self.sentAt = sentAt

        var raw: [JSONValue]
        var shared: [String: JSONValue] = [:]
        if let singleType {
            top["type"] = .string(singleType.rawValue)
            raw = [.object(top)]
        } else {
            guard let batch = top["batch"]?.arrayValue else {
                throw CollectorError(.invalidRequest, "batch must be an array of messages", status: 400)
            }
            guard batch.count <= configuration.maximumBatchEvents else {
                throw CollectorError(.batchTooLarge,
                                     "batch has \(batch.count) messages; the limit is \(configuration.maximumBatchEvents)",
                                     status: 413)
            }
            for (i, size) in sizes.enumerated() where size > configuration.maximumEventBytes {
                throw CollectorError(.eventTooLarge,
                                     "message \(i) is \(size) bytes; the limit is \(configuration.maximumEventBytes)",
                                     status: 413)
            }
            raw = batch
            for key in ["context", "integrations"] {
                if let value = top[key], !value.isNull {
                    guard value.objectValue != nil else {
                        throw CollectorError(.invalidRequest, "\(key) must be an object", status: 400)
                    }
                    shared[key] = value
                }
            }
            // The shared members are copied into every message: each merged message must still fit
            // the per-event limit, or a small batch could expand into gigabytes of stored rows.
            if !shared.isEmpty {
                let sharedBytes = JSONWriter.encode(.object(shared)).count
                if let largest = sizes.max(), largest + sharedBytes > configuration.maximumEventBytes {
                    throw CollectorError(.eventTooLarge,
                                         "a message with the batch's context is over \(configuration.maximumEventBytes) bytes",
                                         status: 413)
                }
            }
        }
        var messages: [[String: JSONValue]] = []
        messages.reserveCapacity(raw.count)
        for (i, element) in raw.enumerated() {
            messages.append(try Self.validate(element, index: i, shared: shared, singleType: singleType))
        }
        self.messages = messages
    }

    /// The messages to store, stamped with `receivedAt` and skew-corrected timestamps.
    /// - Parameters:
    ///   - writeKey: the authenticated project.
    ///   - receivedAt: the collector's clock, in milliseconds since 1970.
    public func prepare(writeKey: String, receivedAt: Int64) -> [PreparedMessage] {
        let receivedText = JSONValue.string(Timestamp.format(milliseconds: receivedAt))
        let batchSentText = sentAt.map { JSONValue.string(Timestamp.format(milliseconds: $0)) }
        return messages.map { original in
            var message = original
            // One copy, with room for the members added below.
            message.reserveCapacity(original.count + 5)
            let messageId = message["messageId"]?.stringValue ?? Identifier.uuid()
            message["messageId"] = .string(messageId)
            message["receivedAt"] = receivedText
            // The client's clock: `timestamp` when it set one, else `originalTimestamp`.
            let clientText = Self.nonNull(message["timestamp"]) ?? Self.nonNull(message["originalTimestamp"])
            let clientTime = clientText.flatMap { $0.stringValue.flatMap(Timestamp.parseMilliseconds) }
            let ownSent = try? Self.timestamp(message["sentAt"], field: "sentAt")
            let sent = ownSent ?? sentAt
            if let ownSent {
                message["sentAt"] = .string(Timestamp.format(milliseconds: ownSent))
            } else if let batchSentText {
                message["sentAt"] = batchSentText
            }
            let corrected: Int64
            if let clientTime {
                message["originalTimestamp"] = clientText
                corrected = sent.map { receivedAt - ($0 - clientTime) } ?? clientTime
            } else {
                corrected = receivedAt
            }
            message["timestamp"] = .string(Timestamp.format(milliseconds: corrected))
            let type = message["type"]?.stringValue ?? "track"
            return PreparedMessage(writeKey: writeKey, messageId: messageId, type: type, receivedAt: receivedAt,
                                   payload: JSONWriter.encode(.object(message)))
        }
    }

    /// How many messages the batch holds.
    public var count: Int { messages.count }

    private static func nonNull(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    private static func timestamp(_ value: JSONValue?, field: String) throws(CollectorError) -> Int64? {
        guard let value = nonNull(value) else { return nil }
        guard let text = value.stringValue, let ms = Timestamp.parseMilliseconds(text) else {
            throw CollectorError(.invalidRequest, "\(field) must be an ISO 8601 timestamp", status: 400)
        }
        return ms
    }

    private static let identifierFields = ["userId", "anonymousId", "previousId", "groupId"]
    private static let objectFields = ["properties", "traits", "context", "integrations"]
    private static let timestampFields = ["timestamp", "originalTimestamp", "sentAt"]

    private static func validate(_ element: JSONValue, index: Int, shared: [String: JSONValue],
                                 singleType: MessageType?) throws(CollectorError) -> [String: JSONValue] {
        func invalid(_ message: String) -> CollectorError {
            CollectorError(.invalidRequest, singleType == nil ? "message \(index): \(message)" : message, status: 400)
        }
        guard case .object(var message) = element else { throw invalid("must be a JSON object") }
        guard let typeText = message["type"]?.stringValue else { throw invalid("type is required") }
        guard let type = MessageType(rawValue: typeText) else { throw invalid("unknown type \(typeText)") }
        // Mutations are guarded: each one copies the message's storage the first time, and most
        // messages need none.
        // A write key inside a message is a credential, not data: it is never stored.
        if message["writeKey"] != nil { message["writeKey"] = nil }
        for key in Self.identifierFields {
            switch message[key] {
            case nil: break
            case .null?: message[key] = nil
            case .string?: break
            case .int(let i)?: message[key] = .string(String(i))
            case .double(let d)?: message[key] = .string(d.description)
            default: throw invalid("\(key) must be a string or a number")
            }
        }
        if let id = message["messageId"], !id.isNull {
            guard let text = id.stringValue, !text.isEmpty, text.utf8.count <= 256 else {
                throw invalid("messageId must be a non-empty string of at most 256 bytes")
            }
        } else if message["messageId"] != nil {
            message["messageId"] = nil
        }
        guard message["userId"] != nil || message["anonymousId"] != nil else {
            throw invalid("userId or anonymousId is required")
        }
        switch type {
        case .track:
            guard let event = message["event"]?.stringValue, !event.isEmpty else { throw invalid("track needs an event name") }
        case .group:
            guard message["groupId"] != nil else { throw invalid("group needs a groupId") }
        case .alias:
            guard message["previousId"] != nil, message["userId"] != nil else {
                throw invalid("alias needs previousId and userId")
            }
        case .identify, .screen, .page:
            break
        }
        for key in Self.objectFields {
            if let value = message[key], !value.isNull, value.objectValue == nil {
                throw invalid("\(key) must be an object")
            }
        }
        for key in Self.timestampFields {
            _ = try timestamp(message[key], field: singleType == nil ? "message \(index): \(key)" : key)
        }
        for (key, value) in shared {
            var merged = value.objectValue ?? [:]
            if let own = message[key]?.objectValue {
                merged.merge(own) { _, mine in mine }
            }
            message[key] = .object(merged)
        }
        return message
    }
}
