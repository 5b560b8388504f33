/// The members of a Segment message that the collector checks or sets. A key is matched by its
/// length first, so telling a member apart costs one string comparison at most (this runs for
/// every member of every message), not a comparison against each name in turn.
enum MessageField {
    case type, event, userId, anonymousId, previousId, groupId, messageId
    case properties, traits, context, integrations
    case timestamp, originalTimestamp, sentAt, receivedAt, writeKey

    /// The field named `key`, or `nil` for any other member.
    init?(_ key: String) {
        let field: MessageField?
        switch key.utf8.count {
        case 4: field = key == "type" ? .type : nil
        case 5: field = key == "event" ? .event : nil
        case 6: field = key == "userId" ? .userId : key == "traits" ? .traits : key == "sentAt" ? .sentAt : nil
        case 7: field = key == "groupId" ? .groupId : key == "context" ? .context : nil
        case 8: field = key == "writeKey" ? .writeKey : nil
        case 9: field = key == "messageId" ? .messageId : key == "timestamp" ? .timestamp : nil
        case 10:
            field =
                key == "previousId"
                ? .previousId : key == "properties" ? .properties : key == "receivedAt" ? .receivedAt : nil
        case 11: field = key == "anonymousId" ? .anonymousId : nil
        case 12: field = key == "integrations" ? .integrations : nil
        case 17: field = key == "originalTimestamp" ? .originalTimestamp : nil
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
