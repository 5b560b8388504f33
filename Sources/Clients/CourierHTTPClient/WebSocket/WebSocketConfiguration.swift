/// The limits and timers of one WebSocket, on either side.
public struct WebSocketConfiguration: Sendable {
    /// Largest inbound message, after reassembling fragments and inflating; larger closes the
    /// socket with 1009.
    public var maximumMessageBytes: Int = 1 << 20
    /// Inbound messages held for a reader that has not taken them; past it the engine stops
    /// reading the socket (TCP pushes back on the peer) until the reader has taken half.
    public var maximumBufferedMessages: Int = 64
    /// Outbound bytes queued for a peer that has not read them yet; `send` waits while the queue
    /// is over it, `sendNow` refuses.
    public var maximumQueuedBytes: Int = 1 << 20
    /// How long a sender may wait for room in the queue before the peer counts as a slow reader
    /// and the socket is closed with 1008.
    public var slowReaderTimeoutMilliseconds: Int = 10_000
    /// A ping goes out after this long without any frame from the peer.
    public var pingIntervalMilliseconds: Int = 30_000
    /// The socket is closed (1001) after this long without any frame from the peer, pongs
    /// included.
    public var idleTimeoutMilliseconds: Int = 75_000
    /// Negotiate `permessage-deflate` (RFC 7692) when the peer offers or accepts it.
    public var compression: Bool = true
    /// How long a client waits for the connection and handshake.
    public var connectTimeoutMilliseconds: Int = 10_000

    /// The defaults: 1 MiB messages, 1 MiB queue, 10 s for a slow reader, pings every 30 s,
    /// 75 s idle timeout, compression on.
    public init() {}
}
