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
    /// The members of the batch's messages as read (`IncomingMessage.members` indexes it).
    private let rawMembers: [JSONRawMember]
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

    /// - Parameter shallow: read a batch's messages as members without building them (the fast
    ///   path); `false` builds every tree (tests compare both).
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
        var members = JSONElementMembers()
        // The fast path: a batch's messages are read as members (where each lies, and its
        // value's kind), not built; what lies deeper (context, properties) is only checked and
        // later copied as sent. Only a message that validation must rewrite gets a tree.
        let fast = singleType == nil && shallow
        let document: JSONValue
        do {
            document =
                fast
                ? try JSONParser.parse(body, elementSizesOf: "batch", into: &sizes, rawMembers: &members)
                : try JSONParser.parse(body, elementSizesOf: "batch", into: &sizes)
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
        addsShared.reserveCapacity(raw.count)
        let haveMembers = fast && members.count == raw.count
        var fullTree: [JSONValue]?
        var rejected: [RejectedMessage] = []
        for (i, element) in raw.enumerated() {
            guard singleType == nil else {
                let (message, _) = try Self.validate(element, index: i, shared: shared, singleType: singleType)
                messages.append(IncomingMessage(members: nil, tree: message))
                addsShared.append(false)
                continue
            }
            // The message's members as read (fast path, objects only).
            let range = haveMembers && element.objectValue != nil ? members.range(of: i) : nil
            let size = i < sizes.count ? sizes[i] : 0
            if size + sharedBytes > configuration.maximumEventBytes {
                let what = sharedBytes > 0 ? "with the batch's context and integrations " : ""
                let messageId =
                    range.map { Self.string(.messageId, in: members.all[$0], body: body) }
                    ?? element["messageId"]?.stringValue
                rejected.append(
                    RejectedMessage(
                        index: i, messageId: messageId,
                        error: HTTPError(
                            .eventTooLarge,
                            "message \(i) \(what)is \(size + sharedBytes) bytes; "
                                + "the limit is \(configuration.maximumEventBytes)")))
                continue
            }
            if let range {
                // The batch's members go in as bytes when the message has none of its own to
                // merge with (the usual case), so the message need not be read and written out.
                let check = body.withUnsafeBufferPointer { Self.plainCheck(members.all[range], body: $0) }
                let splicesShared = !shared.isEmpty && !check.hasSharedKey
                if check.isPlainValid && (shared.isEmpty || splicesShared) {
                    messages.append(IncomingMessage(members: range, tree: nil))
                    addsShared.append(splicesShared)
                    continue
                }
            }
            // Anything else is checked (and rewritten where needed) as a tree: on the fast path
            // the body is read once more, in full, for the first such message (rare: numeric
            // ids, a message with its own context beside the batch's, an escaped key).
            var tree = element
            if range != nil {
                if fullTree == nil { fullTree = (try? JSONParser.parse(body))?["batch"]?.arrayValue }
                if let full = fullTree, i < full.count { tree = full[i] }
            }
            do throws(HTTPError) {
                let (message, changed) = try Self.validate(tree, index: i, shared: shared, singleType: nil)
                messages.append(IncomingMessage(members: changed ? nil : range, tree: message))
                addsShared.append(false)
            } catch {
                rejected.append(
                    RejectedMessage(
                        index: i, messageId: tree["messageId"]?.stringValue,
                        error: HTTPError(.invalidMessage, error.message)))
            }
        }
        self.rejected = rejected
        self.messages = messages
        self.body = body
        self.rawMembers = members.all
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
        /// The client's own time, written back as `originalTimestamp`: a value of the tree, or
        /// (a message read as members) where its JSON string lies in the body.
        let originalTimestamp: JSONValue?
        let originalTimestampBytes: Range<Int>?
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
            let stamp =
                message.tree.map {
                    Self.stamp(
                        $0, receivedAt: receivedAt, receivedText: receivedText, batchSentAt: sentAt,
                        batchSentText: batchSentText)
                }
                ?? stampAsSent(
                    message.members ?? 0..<0, receivedAt: receivedAt, receivedText: receivedText,
                    batchSentText: batchSentText)
            let payload: [UInt8]
            if let members = message.members, copyingMembers || message.tree == nil {
                payload = spliced(members, stamp, addingShared: addsShared[i])
            } else {
                var full = message.tree ?? [:]
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
            let type =
                message.tree?["type"]?.stringValue
                ?? message.members.flatMap { Self.string(.type, in: rawMembers[$0], body: body) }
            return PreparedMessage(
                writeKey: writeKey, messageId: stamp.messageId, type: type ?? "track", receivedAt: receivedAt,
                payload: payload)
        }
    }

    private static func stamp(
        _ message: [String: JSONValue], receivedAt: Int64, receivedText: String,
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
            originalTimestamp: clientTime == nil ? nil : clientText, originalTimestampBytes: nil, sentAt: sentText)
    }

    /// The stamp of a message read as members that passed `plainCheck` (so its timestamps are
    /// strings without escapes, or null): read from the body's bytes, with no tree.
    private func stampAsSent(
        _ range: Range<Int>, receivedAt: Int64, receivedText: String, batchSentText: String?
    ) -> Stamp {
        var messageId: String?
        var client: (time: Int64, bytes: Range<Int>, own: Bool)?
        var ownSent: Int64?
        body.withUnsafeBufferPointer { bytes in
            for member in rawMembers[range] where !member.keyHasEscapes {
                guard let field = MessageField(utf8: UnsafeBufferPointer(rebasing: bytes[member.key])),
                    let content = member.stringContent
                else { continue }
                let text = UnsafeBufferPointer(rebasing: bytes[content])
                switch field {
                case .messageId:
                    messageId = String(decoding: text, as: UTF8.self)
                case .timestamp, .originalTimestamp:
                    // `timestamp` wins over `originalTimestamp`, wherever each lies.
                    guard client?.own != true, let time = Timestamp.parseMilliseconds(utf8: text) else { continue }
                    client = (time, member.value, field == .timestamp)
                case .sentAt:
                    ownSent = Timestamp.parseMilliseconds(utf8: text)
                default:
                    continue
                }
            }
        }
        let sent = ownSent ?? sentAt
        let sentText = ownSent.map { Timestamp.format(milliseconds: $0) } ?? batchSentText
        let corrected =
            client.map { client in sent.map { receivedAt - ($0 - client.time) } ?? client.time } ?? receivedAt
        return Stamp(
            messageId: messageId ?? Identifier.uuid(), receivedAt: receivedText,
            timestamp: Timestamp.format(milliseconds: corrected), originalTimestamp: nil,
            originalTimestampBytes: client?.bytes, sentAt: sentText)
    }

    /// The message as sent, minus the members the collector sets, plus the collector's own.
    private func spliced(_ range: Range<Int>, _ stamp: Stamp, addingShared: Bool) -> [UInt8] {
        let members = rawMembers[range]
        var writer = JSONWriter(
            capacity: (members.last?.range.upperBound ?? 0) - (members.first?.range.lowerBound ?? 0) + 200
                + (addingShared ? sharedMembers.count : 0))
        writer.append(byte: UInt8(ascii: "{"))
        if addingShared && !sharedMembers.isEmpty {
            sharedMembers.withUnsafeBytes { writer.append(raw: $0) }
            writer.append(byte: UInt8(ascii: ","))
        }
        body.withUnsafeBufferPointer { bytes in
            for member in members where !isStamped(member, in: bytes) {
                writer.append(raw: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[member.range])))
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
        } else if let original = stamp.originalTimestampBytes {
            writer.append(byte: UInt8(ascii: ","))
            writer.write(string: "originalTimestamp")
            writer.append(byte: UInt8(ascii: ":"))
            body.withUnsafeBytes { writer.append(raw: UnsafeRawBufferPointer(rebasing: $0[original])) }
        }
        if let sent = stamp.sentAt {
            writer.append(byte: UInt8(ascii: ","))
            add("sentAt", .string(sent))
        }
        writer.append(byte: UInt8(ascii: "}"))
        return writer.bytes
    }

    /// Whether a member read as sent is one the collector sets itself (its key decoded first
    /// when it has escapes: `"\u0074imestamp"` is `timestamp`).
    private func isStamped(_ member: JSONRawMember, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if member.keyHasEscapes {
            let quoted = (member.key.lowerBound - 1)..<(member.key.upperBound + 1)
            return JSONParser.string(in: body, quoted: quoted).map(Self.isStamped) ?? false
        }
        return MessageField(utf8: UnsafeBufferPointer(rebasing: bytes[member.key]))?.isStamped ?? false
    }

    /// The text of a message's string member `field` read as sent (escapes decoded), if it has one.
    private static func string(_ field: MessageField, in members: ArraySlice<JSONRawMember>, body: [UInt8]) -> String? {
        body.withUnsafeBufferPointer { bytes in
            for member in members where !member.keyHasEscapes {
                guard MessageField(utf8: UnsafeBufferPointer(rebasing: bytes[member.key])) == field else { continue }
                guard let content = member.stringContent else { return nil }
                if member.valueHasEscapes { return JSONParser.string(in: body, quoted: member.value) }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
            }
            return nil
        }
    }

    /// How many messages the batch holds.
    public var count: Int { messages.count }

    static func nonNull(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    static func timestamp(_ value: JSONValue?, field: String) throws(HTTPError) -> Int64? {
        guard let value = nonNull(value) else { return nil }
        guard let text = value.stringValue, let ms = Timestamp.parseMilliseconds(text) else {
            throw HTTPError(.invalidRequest, "\(field) must be an ISO 8601 timestamp")
        }
        return ms
    }
}
