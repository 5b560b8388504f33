/// A row's place in a conversation's display order: rows with a `serverSeq` by it, then pending
/// rows in the order they were written. Compared as a tuple, it is a keyset position.
struct MessagePosition: Sendable, Hashable {
    /// Whether the row has no `serverSeq` yet (pending rows sort last).
    var pending: Bool
    /// The `serverSeq`, or 0 while pending.
    var sortSeq: Int64
    /// The row's local id (the order it was written in).
    var localId: Int64
}

/// The cursor text of a position, tied to the conversation's history epoch: a cursor issued
/// before the history was deleted is refused as expired rather than paging from a place that no
/// longer exists.
///
/// `m1.<epoch>.<pending>.<seq>.<local id>`: opaque to callers, who only hand it back.
enum MessageCursor {
    static func encode(_ position: MessagePosition, epoch: Int64) -> String {
        "m1.\(epoch).\(position.pending ? 1 : 0).\(position.sortSeq).\(position.localId)"
    }

    /// The position in `text`.
    /// - Throws: `.invalidCursor` when it does not decode; `.expiredCursor` when it was issued
    ///   under another epoch.
    static func decode(_ text: String, epoch: Int64) throws(ConversationStoreError) -> MessagePosition {
        let parts = text.utf8.count <= 128 ? text.split(separator: ".", omittingEmptySubsequences: false) : []
        guard parts.count == 5, parts[0] == "m1", let issued = Int64(parts[1]), let pending = Int(parts[2]),
            pending == 0 || pending == 1, let seq = Int64(parts[3]), seq >= 0, let localId = Int64(parts[4]),
            localId > 0
        else { throw ConversationStoreError(.invalidCursor, "the cursor was not issued by this store") }
        guard issued == epoch else {
            throw ConversationStoreError(
                .expiredCursor, "the conversation's history changed since the cursor was issued")
        }
        return MessagePosition(pending: pending == 1, sortSeq: seq, localId: localId)
    }
}
