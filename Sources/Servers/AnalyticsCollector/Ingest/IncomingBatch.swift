import CourierCore
import CourierHTTP

/// Reads a request body in Segment's format and turns it into messages ready to store: checks
/// the limits and fields, merges the batch's `context` and `integrations` into each message, and
/// corrects the client's clock skew.
public struct IncomingBatch: Sendable {
    /// The write key the body names (`writeKey` member), if any.
    public let bodyWriteKey: String?
    /// The messages, validated but not yet bound to a write key and time.
    let messages: [IncomingMessage]
    /// The request body the messages' members lie in.
    private let body: [UInt8]
    /// The batch's `context` and `integrations`, and the same encoded as members (`"context":{…}`),
    /// added as bytes to the copied messages that have no member of those names.
    private let shared: [String: JSONValue]
    private let sharedMembers: [UInt8]
    /// For each message, whether `shared` is still to be added when it is stored.
    private let addsShared: [Bool]
    /// The batch's `sentAt` (milliseconds) when present.
    let sentAt: Int64?
    /// Messages of a batch that failed validation: they are not stored, and the answer lists
    /// them, so one bad event never costs the good ones beside it.
    public let rejected: [RejectedMessage]

    /// Parses and validates a body.
    /// - Parameters:
    ///   - body: the decompressed request body.
    ///   - singleType: `nil` for `/v1/batch`; the message type for `/v1/track` and the like.
    ///   - configuration: the limits.
    /// - Throws: `HTTPError` with status 400 or 413.
    public init(body: [UInt8], singleType: MessageType?, configuration: CollectorConfiguration) throws(HTTPError) {
        try self.init(body: body, singleType: singleType, configuration: configuration, shallow: true)
    }

    /// - Parameter shallow: read a batch's nested members without building them (the fast path);
    ///   `false` builds every tree (tests compare both).
    init(
        body: [UInt8], singleType: MessageType?, configuration: CollectorConfiguration,
        shallow: Bool
    ) throws(HTTPError) {
        let byteLimit = singleType == nil ? configuration.maximumBatchBytes : configuration.maximumEventBytes
        if body.count > byteLimit {
            let code: HTTPError.Code = singleType == nil ? .batchTooLarge : .eventTooLarge
            throw HTTPError(code, "body is \(body.count) bytes; the limit is \(byteLimit)")
        }
        var sizes: [Int] = []
        var memberSpans: [[JSONMemberSpan]] = []
        // The fast path: a batch's messages are read as members, not built.
        let elementsBuilt = !(singleType == nil && shallow)
        let document: JSONValue
        do {
            // A batch's messages are checked member by member; what lies deeper (context,
            // properties) is only checked for validity and later copied as sent, so it is not
            // built unless a message must be rewritten (see below).
            // On the fast path the messages themselves are not built as dictionaries either:
            // their members (and the scalar values checked below) are read from the spans.
            document = try JSONParser.parse(
                body, elementSizesOf: "batch", into: &sizes, members: &memberSpans,
                shallowFromDepth: elementsBuilt ? Int.max : 3, buildingElements: elementsBuilt)
        } catch {
            throw HTTPError(.invalidJSON, "invalid JSON: \(error)")
        }
        guard case .object(var top) = document else {
            throw HTTPError(.invalidRequest, "the body must be a JSON object")
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
                throw HTTPError(.invalidRequest, "batch must be an array of messages")
            }
            guard batch.count <= configuration.maximumBatchEvents else {
                throw HTTPError(
                    .batchTooLarge,
                    "batch has \(batch.count) messages; the limit is \(configuration.maximumBatchEvents)")
            }
            raw = batch
            for key in ["context", "integrations"] {
                if let value = top[key], !value.isNull {
                    guard value.objectValue != nil else {
                        throw HTTPError(.invalidRequest, "\(key) must be an object")
                    }
                    shared[key] = value
                }
            }
        }
        // The shared members are copied into every message: each merged message must still fit
        // the per-event limit, or a small batch could expand into gigabytes of stored rows.
        let sharedObject = shared.isEmpty ? [] : JSONWriter.encode(.object(shared))
        let sharedBytes = sharedObject.count
        var messages: [IncomingMessage] = []
        var addsShared: [Bool] = []
        messages.reserveCapacity(raw.count)
        let haveSpans = singleType == nil && memberSpans.count == raw.count
        var fullTree: [JSONValue]?
        var rejected: [RejectedMessage] = []
        for (i, placeholder) in raw.enumerated() {
            guard singleType == nil else {
                let (message, _) = try Self.validate(placeholder, index: i, shared: shared, singleType: singleType)
                messages.append(IncomingMessage(sent: nil, tree: message))
                addsShared.append(false)
                continue
            }
            // What the parse built for the message, or (fast path) its members as read.
            let sent: [JSONMemberSpan]? = haveSpans && placeholder.objectValue != nil ? memberSpans[i] : nil
            let element = IncomingMessage(sent: sent, tree: elementsBuilt ? placeholder.objectValue : nil)
            let size = i < sizes.count ? sizes[i] : 0
            if size + sharedBytes > configuration.maximumEventBytes {
                let what = sharedBytes > 0 ? "with the batch's context and integrations " : ""
                rejected.append(
                    RejectedMessage(
                        index: i, messageId: element["messageId"]?.stringValue,
                        error: HTTPError(
                            .eventTooLarge,
                            "message \(i) \(what)is \(size + sharedBytes) bytes; "
                                + "the limit is \(configuration.maximumEventBytes)")))
                continue
            }
            // The batch's members go in as bytes when the message has none of its own to merge
            // with (the usual case), so the message need not be read and written out again.
            let splicesShared = haveSpans && !shared.isEmpty && !shared.keys.contains { element[$0] != nil }
            if !elementsBuilt, let sent, shared.isEmpty || splicesShared,
                Self.isPlainValid(sent.lazy.map { ($0.key, $0.value) })
            {
                messages.append(IncomingMessage(sent: sent, tree: nil))
                addsShared.append(splicesShared)
                continue
            }
            var message: [String: JSONValue]
            var changed: Bool
            do throws(HTTPError) {
                let value = placeholder.objectValue == nil ? placeholder : .object(element.tree ?? element.dictionary)
                (message, changed) = try Self.validate(
                    value, index: i, shared: splicesShared ? [:] : shared, singleType: singleType)
            } catch {
                rejected.append(
                    RejectedMessage(
                        index: i, messageId: element["messageId"]?.stringValue,
                        error: HTTPError(.invalidMessage, error.message)))
                continue
            }
            if changed && singleType == nil {
                // This message is rewritten in full, so it needs its whole tree: read the body
                // again without the shallow shortcut (rare: numeric ids, a batch-level context).
                if fullTree == nil {
                    fullTree = (try? JSONParser.parse(body))?["batch"]?.arrayValue
                }
                if let tree = fullTree, i < tree.count {
                    (message, changed) = try Self.validate(tree[i], index: i, shared: shared, singleType: singleType)
                }
            }
            messages.append(IncomingMessage(sent: haveSpans && !changed ? memberSpans[i] : nil, tree: message))
            addsShared.append(splicesShared && !changed)
        }
        self.rejected = rejected
        self.messages = messages
        self.body = body
        self.shared = shared
        self.addsShared = addsShared
        // `{"context":{…}}` without its braces.
        sharedMembers = sharedObject.count > 2 ? Array(sharedObject[1..<(sharedObject.count - 1)]) : []
    }

    /// The messages to store, stamped with `receivedAt` and skew-corrected timestamps.
    /// - Parameters:
    ///   - writeKey: the authenticated project.
    ///   - receivedAt: the collector's clock, in milliseconds since 1970.
    public func prepare(writeKey: String, receivedAt: Int64) -> [PreparedMessage] {
        prepare(writeKey: writeKey, receivedAt: receivedAt, copyingMembers: true)
    }

    /// Whether `key` is a member the collector sets itself (the client's own is replaced).
    static func isStamped(_ key: String) -> Bool { MessageField(key)?.isStamped ?? false }

    /// What the collector adds to one message.
    private struct Stamp {
        let messageId: String
        let receivedAt: String
        let timestamp: String
        let originalTimestamp: JSONValue?
        let sentAt: String?
    }

    /// - Parameter copyingMembers: copy the client's members as sent where validation left them
    ///   untouched (the fast path); `false` writes every message that has a tree out again (tests
    ///   compare both on a batch read with `shallow: false`, where every message has one).
    func prepare(writeKey: String, receivedAt: Int64, copyingMembers: Bool) -> [PreparedMessage] {
        let receivedText = Timestamp.format(milliseconds: receivedAt)
        let batchSentText = sentAt.map { Timestamp.format(milliseconds: $0) }
        return messages.indices.map { i in
            let message = messages[i]
            let stamp = Self.stamp(
                message, receivedAt: receivedAt, receivedText: receivedText, batchSentAt: sentAt,
                batchSentText: batchSentText)
            let payload: [UInt8]
            if let members = message.sent, copyingMembers || message.tree == nil {
                payload = spliced(members, stamp, addingShared: addsShared[i])
            } else {
                var full = message.tree ?? message.dictionary
                if addsShared[i] {
                    for (key, value) in shared { full[key] = value }
                }
                full.reserveCapacity(full.count + 5)
                full["messageId"] = .string(stamp.messageId)
                full["receivedAt"] = .string(stamp.receivedAt)
                full["timestamp"] = .string(stamp.timestamp)
                full["originalTimestamp"] = stamp.originalTimestamp
                full["sentAt"] = stamp.sentAt.map(JSONValue.string)
                payload = JSONWriter.encode(.object(full))
            }
            return PreparedMessage(
                writeKey: writeKey, messageId: stamp.messageId,
                type: message["type"]?.stringValue ?? "track", receivedAt: receivedAt, payload: payload)
        }
    }

    private static func stamp(
        _ message: IncomingMessage, receivedAt: Int64, receivedText: String,
        batchSentAt: Int64?, batchSentText: String?
    ) -> Stamp {
        // The client's clock: `timestamp` when it set one, else `originalTimestamp`.
        let clientText = nonNull(message["timestamp"]) ?? nonNull(message["originalTimestamp"])
        let clientTime = clientText.flatMap { $0.stringValue.flatMap(Timestamp.parseMilliseconds) }
        let ownSent = try? timestamp(message["sentAt"], field: "sentAt")
        let sent = ownSent ?? batchSentAt
        let sentText = ownSent.map { Timestamp.format(milliseconds: $0) } ?? batchSentText
        let corrected = clientTime.map { client in sent.map { receivedAt - ($0 - client) } ?? client } ?? receivedAt
        return Stamp(
            messageId: message["messageId"]?.stringValue ?? Identifier.uuid(), receivedAt: receivedText,
            timestamp: Timestamp.format(milliseconds: corrected),
            originalTimestamp: clientTime == nil ? nil : clientText, sentAt: sentText)
    }

    /// The message as sent, minus the members the collector sets, plus the collector's own.
    private func spliced(_ members: [JSONMemberSpan], _ stamp: Stamp, addingShared: Bool) -> [UInt8] {
        var writer = JSONWriter(
            capacity: (members.last?.range.upperBound ?? 0) - (members.first?.range.lowerBound ?? 0) + 200
                + (addingShared ? sharedMembers.count : 0))
        writer.append(byte: UInt8(ascii: "{"))
        if addingShared && !sharedMembers.isEmpty {
            sharedMembers.withUnsafeBytes { writer.append(raw: $0) }
            writer.append(byte: UInt8(ascii: ","))
        }
        body.withUnsafeBytes { raw in
            for member in members where !Self.isStamped(member.key) {
                writer.append(raw: UnsafeRawBufferPointer(rebasing: raw[member.range]))
                writer.append(byte: UInt8(ascii: ","))
            }
        }
        func add(_ key: String, _ value: JSONValue) {
            writer.write(string: key)
            writer.append(byte: UInt8(ascii: ":"))
            writer.write(value)
        }
        add("messageId", .string(stamp.messageId))
        writer.append(byte: UInt8(ascii: ","))
        add("receivedAt", .string(stamp.receivedAt))
        writer.append(byte: UInt8(ascii: ","))
        add("timestamp", .string(stamp.timestamp))
        if let original = stamp.originalTimestamp {
            writer.append(byte: UInt8(ascii: ","))
            add("originalTimestamp", original)
        }
        if let sent = stamp.sentAt {
            writer.append(byte: UInt8(ascii: ","))
            add("sentAt", .string(sent))
        }
        writer.append(byte: UInt8(ascii: "}"))
        return writer.bytes
    }

    /// How many messages the batch holds.
    public var count: Int { messages.count }

    private static func nonNull(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    private static func timestamp(_ value: JSONValue?, field: String) throws(HTTPError) -> Int64? {
        guard let value = nonNull(value) else { return nil }
        guard let text = value.stringValue, let ms = Timestamp.parseMilliseconds(text) else {
            throw HTTPError(.invalidRequest, "\(field) must be an ISO 8601 timestamp")
        }
        return ms
    }

    private static let identifierFields = ["userId", "anonymousId", "previousId", "groupId"]
    private static let objectFields = ["properties", "traits", "context", "integrations"]
    private static let timestampFields = ["timestamp", "originalTimestamp", "sentAt"]

    /// Checks one message; returns it (normalized) and whether normalizing changed anything but
    /// its `writeKey` (which the writer drops either way).
    private static func validate(
        _ element: JSONValue, index: Int, shared: [String: JSONValue],
        singleType: MessageType?
    ) throws(HTTPError) -> ([String: JSONValue], Bool) {
        if shared.isEmpty, case .object(let message) = element, isPlainValid(message.lazy.map { ($0.key, $0.value) }) {
            return (message, false)
        }
        var changed = !shared.isEmpty
        func invalid(_ message: String) -> HTTPError {
            HTTPError(.invalidRequest, singleType == nil ? "message \(index): \(message)" : message)
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
            case .null?:
                message[key] = nil
                changed = true
            case .string?: break
            case .int(let i)?:
                message[key] = .string(String(i))
                changed = true
            case .bigInteger(let digits)?:
                // Beyond 64 bits an id keeps its exact digits; a Double would round it.
                message[key] = .string(digits)
                changed = true
            case .double(let d)?:
                message[key] = .string(d.description)
                changed = true
            default: throw invalid("\(key) must be a string or a number")
            }
        }
        if let id = message["messageId"], !id.isNull {
            guard let text = id.stringValue, !text.isEmpty, text.utf8.count <= 256, !text.utf8.contains(0) else {
                throw invalid("messageId must be a non-empty string of at most 256 bytes without U+0000")
            }
        } else if message["messageId"] != nil {
            message["messageId"] = nil
            changed = true
        }
        guard message["userId"] != nil || message["anonymousId"] != nil else {
            throw invalid("userId or anonymousId is required")
        }
        switch type {
        case .track:
            guard let event = message["event"]?.stringValue, !event.isEmpty else {
                throw invalid("track needs an event name")
            }
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
        return (message, changed)
    }

    /// Whether `message` passes every check of `validate` as it is, with nothing to normalize,
    /// seen in one pass over its members (about ten) instead of some twenty dictionary lookups,
    /// each hashing its key: the profile's largest cost in the handler. `false` sends the message
    /// through `validate`'s full path, which names the first problem.
    private static func isPlainValid(_ members: some Sequence<(String, JSONValue)>) -> Bool {
        var type: MessageType?
        var hasUser = false, hasEvent = false, hasGroupId = false, hasPreviousId = false, hasUserId = false
        for (key, value) in members {
            guard let field = MessageField(key) else { continue }
            switch field {
            case .type:
                guard let text = value.stringValue, let known = MessageType(rawValue: text) else { return false }
                type = known
            case .userId, .anonymousId, .previousId, .groupId:
                guard case .string = value else { return false }
                switch field {
                case .userId:
                    hasUser = true
                    hasUserId = true
                case .anonymousId: hasUser = true
                case .previousId: hasPreviousId = true
                default: hasGroupId = true
                }
            case .messageId:
                guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 256, !text.utf8.contains(0) else {
                    return false
                }
            case .event:
                guard let text = value.stringValue, !text.isEmpty else { return false }
                hasEvent = true
            case .properties, .traits, .context, .integrations:
                guard value.isNull || value.objectValue != nil else { return false }
            case .timestamp, .originalTimestamp, .sentAt:
                guard (try? timestamp(value, field: key)) != nil || value.isNull else { return false }
            case .writeKey:
                return false
            case .receivedAt:
                break
            }
        }
        guard let type, hasUser else { return false }
        switch type {
        case .track: return hasEvent
        case .group: return hasGroupId
        case .alias: return hasPreviousId && hasUserId
        case .identify, .screen, .page: return true
        }
    }
}
