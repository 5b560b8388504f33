import CourierCore

/// An item the server delivered.
public struct IncomingItem: Sendable, Hashable {
    /// Its unique id (the sender's client id): duplicates are dropped by it.
    public let id: String
    /// Its ordering domain (a conversation).
    public let conversation: String
    /// Its place in the conversation, given by the server.
    public let serverSeq: Int64
    /// Its position in the server's feed for this device, when known: the resume cursor.
    public let cursor: Int64?
    /// What the server sent.
    public let body: JSONValue

    /// Creates an item.
    public init(id: String, conversation: String, serverSeq: Int64, cursor: Int64? = nil, body: JSONValue) {
        self.id = id
        self.conversation = conversation
        self.serverSeq = serverSeq
        self.cursor = cursor
        self.body = body
    }
}

/// What the inbox made of an incoming item.
public enum InboxOutcome: Sendable, Hashable {
    /// New, and the next of its conversation.
    case accepted
    /// New, but sequence numbers between the last one seen and this one are missing: fetch them.
    case acceptedAfterGap(missing: ClosedRange<Int64>)
    /// Seen before (a redelivery after a lost ack): dropped.
    case duplicate
}
