#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The members of a Segment message that the collector checks or sets. A key is matched by its
/// length first, so telling a member apart costs one comparison at most (this runs for every
/// member of every message), not a comparison against each name in turn.
enum MessageField {
    case type, event, userId, anonymousId, previousId, groupId, messageId
    case properties, traits, context, integrations
    case timestamp, originalTimestamp, sentAt, receivedAt, writeKey

    /// The field named `key`, or `nil` for any other member.
    init?(_ key: String) {
        var key = key
        guard let field = key.withUTF8({ MessageField(utf8: $0) }) else { return nil }
        self = field
    }

    /// The field whose name is the UTF-8 bytes `key`, or `nil` for any other member.
    init?(utf8 key: UnsafeBufferPointer<UInt8>) {
        func named(_ name: StaticString) -> Bool {
            guard let bytes = key.baseAddress else { return false }
            return memcmp(bytes, name.utf8Start, key.count) == 0
        }
        let field: MessageField?
        switch key.count {
        case 4: field = named("type") ? .type : nil
        case 5: field = named("event") ? .event : nil
        case 6: field = named("userId") ? .userId : named("traits") ? .traits : named("sentAt") ? .sentAt : nil
        case 7: field = named("groupId") ? .groupId : named("context") ? .context : nil
        case 8: field = named("writeKey") ? .writeKey : nil
        case 9: field = named("messageId") ? .messageId : named("timestamp") ? .timestamp : nil
        case 10:
            field =
                named("previousId")
                ? .previousId : named("properties") ? .properties : named("receivedAt") ? .receivedAt : nil
        case 11: field = named("anonymousId") ? .anonymousId : nil
        case 12: field = named("integrations") ? .integrations : nil
        case 17: field = named("originalTimestamp") ? .originalTimestamp : nil
        default: field = nil
        }
        guard let field else { return nil }
        self = field
    }

    /// Whether the collector sets this member itself (the client's own is replaced or dropped).
    var isStamped: Bool {
        switch self {
        case .messageId, .receivedAt, .timestamp, .originalTimestamp, .sentAt, .writeKey: return true
        default: return false
        }
    }
}
