import CourierCore
import CourierHTTP

/// How a message of a batch is checked: in full as a tree (`validate`, which names the first
/// problem and normalizes ids), or, for the usual message, in one pass over its members (as a
/// dictionary, or as read from the body's bytes) that only says whether it is valid as it is.
extension IncomingBatch {
    static let identifierFields = ["userId", "anonymousId", "previousId", "groupId"]
    static let objectFields = ["properties", "traits", "context", "integrations"]
    static let timestampFields = ["timestamp", "originalTimestamp", "sentAt"]

    /// Checks one message; returns it (normalized) and whether normalizing changed anything but
    /// its `writeKey` (which the writer drops either way).
    static func validate(
        _ element: JSONValue, index: Int, shared: [String: JSONValue],
        singleType: MessageType?
    ) throws(HTTPError) -> ([String: JSONValue], Bool) {
        if shared.isEmpty, case .object(let message) = element, isPlainValid(message) {
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
    static func isPlainValid(_ message: [String: JSONValue]) -> Bool {
        var type: MessageType?
        var seen = SeenFields()
        for (key, value) in message {
            guard let field = MessageField(key) else { continue }
            let ok: Bool
            switch field {
            case .type:
                type = value.stringValue.flatMap(MessageType.init(rawValue:))
                ok = type != nil
            case .userId, .anonymousId, .previousId, .groupId:
                guard case .string = value else { return false }
                ok = true
            case .messageId:
                ok = value.stringValue.map(isPlainMessageId) ?? false
            case .event:
                ok = value.stringValue?.isEmpty == false
            case .properties, .traits, .context, .integrations:
                ok = value.isNull || value.objectValue != nil
            case .timestamp, .originalTimestamp, .sentAt:
                ok = value.isNull || value.stringValue.flatMap(Timestamp.parseMilliseconds) != nil
            case .writeKey:
                ok = false
            case .receivedAt:
                ok = true
            }
            guard ok else { return false }
            seen.insert(field)
        }
        return seen.complete(for: type)
    }

    /// What `plainCheck` found in a message read as members.
    struct PlainCheck {
        /// Whether it passes every check of `validate` as it is (as `isPlainValid`).
        var isPlainValid: Bool
        /// Whether it has a `context` or `integrations` member of its own.
        var hasSharedKey: Bool
    }

    /// `isPlainValid` for a message read as members, from the body's bytes: no string or tree
    /// is made. A key or a checked string with escapes sends the message to the full path.
    static func plainCheck(_ members: ArraySlice<JSONRawMember>, body: UnsafeBufferPointer<UInt8>) -> PlainCheck {
        var type: MessageType?
        var seen = SeenFields()
        var hasSharedKey = false
        for member in members {
            guard !member.keyHasEscapes else { return PlainCheck(isPlainValid: false, hasSharedKey: true) }
            guard let field = MessageField(utf8: UnsafeBufferPointer(rebasing: body[member.key])) else { continue }
            let text = member.stringContent.map { UnsafeBufferPointer(rebasing: body[$0]) }
            let plainText = member.valueHasEscapes ? nil : text
            let ok: Bool
            switch field {
            case .type:
                type = plainText.flatMap { MessageType(rawValue: String(decoding: $0, as: UTF8.self)) }
                ok = type != nil
            case .userId, .anonymousId, .previousId, .groupId:
                ok = member.kind == .string
            case .messageId:
                // Without escapes the text has no U+0000 (a raw control byte is refused).
                ok = plainText.map { !$0.isEmpty && $0.count <= 256 } ?? false
            case .event:
                ok = text?.isEmpty == false
            case .properties, .traits, .context, .integrations:
                ok = member.kind == .object || member.kind == .null
                if field == .context || field == .integrations { hasSharedKey = true }
            case .timestamp, .originalTimestamp, .sentAt:
                ok = member.kind == .null || plainText.flatMap(Timestamp.parseMilliseconds(utf8:)) != nil
            case .writeKey:
                ok = false
            case .receivedAt:
                ok = true
            }
            guard ok else { return PlainCheck(isPlainValid: false, hasSharedKey: hasSharedKey) }
            seen.insert(field)
        }
        return PlainCheck(isPlainValid: seen.complete(for: type), hasSharedKey: hasSharedKey)
    }

    static func isPlainMessageId(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 256 && !text.utf8.contains(0)
    }

    /// The identifying members a message has, for the checks its type needs.
    struct SeenFields {
        var user = false, event = false, groupId = false, previousId = false, userId = false

        mutating func insert(_ field: MessageField) {
            switch field {
            case .userId:
                user = true
                userId = true
            case .anonymousId: user = true
            case .previousId: previousId = true
            case .groupId: groupId = true
            case .event: event = true
            default: break
            }
        }

        /// Whether a message of `type` with these members has every one its type needs.
        func complete(for type: MessageType?) -> Bool {
            guard let type, user else { return false }
            switch type {
            case .track: return event
            case .group: return groupId
            case .alias: return previousId && userId
            case .identify, .screen, .page: return true
            }
        }
    }
}
