import CourierCore

/// One message of an incoming batch after validation: its members as the client sent them (the
/// usual case, copied into the stored row as bytes), its tree when validation checked it as one,
/// or both.
struct IncomingMessage {
    /// Where its members lie in the batch's members as read, when they are copied as sent;
    /// `nil` when the message is written out again from its tree.
    let members: Range<Int>?
    /// The message as a tree: as validation rewrote or checked it; `nil` on the fast path.
    let tree: [String: JSONValue]?
}
