import CourierCore

/// One message of an incoming batch after validation: its members as the client sent them (the
/// usual case, copied into the stored row as bytes), its tree when validation rewrote it, or both
/// when the whole batch was built.
struct IncomingMessage {
    /// The message's members as sent, in order, with their values (nested objects and arrays as
    /// empty placeholders of their kind); `nil` when the message must be written out again.
    let sent: [JSONMemberSpan]?
    /// The message as a tree: as validation rewrote it, or as read when the batch was built in
    /// full; `nil` on the fast path.
    let tree: [String: JSONValue]?

    /// The value of member `key`: looked up in the tree, or found among the few members as sent
    /// (compared, not hashed).
    subscript(key: String) -> JSONValue? {
        if let tree { return tree[key] }
        let length = key.utf8.count
        return sent?.first { $0.key.utf8.count == length && $0.key == key }?.value
    }

    /// The members as a dictionary (the parser has refused repeated keys).
    var dictionary: [String: JSONValue] {
        guard let sent else { return [:] }
        return Dictionary(sent.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
