import CourierCore
import CourierHTTPClient

/// The application protocol spoken on the socket: how a ping, a resume request and a send look,
/// and what an inbound message means. `RealtimeConnection` is generic over it; the messenger's
/// framing is `RequestResponseProtocol`.
public protocol RealtimeProtocol: Sendable {
    /// A keepalive ping, answered by a response with the same `id`.
    func ping(id: Int64) -> WebSocketMessage
    /// A request for the items after `cursor` (the resume, and the fetch of a gap).
    func resume(after cursor: Int64, id: Int64) -> WebSocketMessage
    /// A request that sends `item`; its response is the ack.
    func send(_ item: OutboxItem, id: Int64) -> WebSocketMessage
    /// What an inbound message is.
    func read(_ message: WebSocketMessage) -> RealtimeFrame
    /// The server's sequence number in a send's successful response.
    func serverSeq(inAcknowledgement body: JSONValue?) -> Int64?
    /// The items of a resume response, and whether more follow after the last one's cursor.
    func page(inResumeResponse body: JSONValue?) -> RealtimePage?
}

/// An inbound message, read by a `RealtimeProtocol`.
public enum RealtimeFrame: Sendable, Hashable {
    /// The answer to one of this client's requests.
    case response(id: Int64, status: Int, body: JSONValue?)
    /// A server's push: an item (or `nil` for a control message), and the reply that acknowledges
    /// it, sent only once the item is stored.
    case push(IncomingItem?, acknowledgement: WebSocketMessage?)
    /// Anything else; ignored.
    case other
}

/// One page of a resume.
public struct RealtimePage: Sendable, Hashable {
    /// The items, oldest first.
    public var items: [IncomingItem]
    /// The cursor after the last item.
    public var cursor: Int64
    /// Whether another page follows.
    public var more: Bool

    /// Creates a page.
    public init(items: [IncomingItem], cursor: Int64, more: Bool) {
        self.items = items
        self.cursor = cursor
        self.more = more
    }
}
