/// An open WebSocket, on the server (a route's handler gets one) or the client
/// (`WebSocketClient.connect`): an `AsyncSequence` of inbound messages and an outbound writer.
///
/// ```swift
/// for await message in socket.inbound {
///     try await socket.outbound.send(message)   // echo
/// }
/// ```
public struct WebSocket: Sendable {
    package let channel: WebSocketChannel

    /// On the server, the executor of the event loop that carries this socket; `nil` on the
    /// client. A reading loop that never makes a thread wait can run there, and then handles each
    /// message in the loop turn that read it, with no hand-off to another thread and back:
    /// ```swift
    /// await withTaskExecutorPreference(socket.loopExecutor) {
    ///     for await message in socket.inbound { handle(message) }
    /// }
    /// ```
    /// What it does without awaiting holds every connection of that loop: a file, a database
    /// or a lock held long must stay on the handler's own task.
    public let loopExecutor: (any TaskExecutor)?

    package init(channel: WebSocketChannel, loopExecutor: (any TaskExecutor)? = nil) {
        self.channel = channel
        self.loopExecutor = loopExecutor
    }

    /// The messages the peer sends, in order; the sequence ends when the socket closes.
    public var inbound: WebSocketInbound { WebSocketInbound(channel: channel) }
    /// Sends messages and the close.
    public var outbound: WebSocketOutbound { WebSocketOutbound(channel: channel) }

    /// Waits until the socket has closed, and tells how (the peer's code when it sent a close
    /// frame, this side's otherwise, 1006 when the connection just ended).
    public func closed() async -> WebSocketClose { await channel.waitUntilEnded() }

    /// How the socket closed, or `nil` while it is open.
    public var closeInfo: WebSocketClose? { channel.endedClose }
    /// The close this side queued or decided (the application's, or the engine's own: idle,
    /// slow reader, `WebSocketClose.serverStopping`), if any, even when the connection dropped
    /// before it was written; `closeInfo` prefers the peer's.
    public var closeSent: WebSocketClose? { channel.sentClose }
}

/// The inbound messages of a WebSocket. One task reads at a time; when it reads slowly, the
/// engine stops reading the socket once `maximumBufferedMessages` wait, so the peer is slowed
/// down by TCP instead of filling memory.
public struct WebSocketInbound: AsyncSequence, Sendable {
    /// Messages, whole.
    public typealias Element = WebSocketMessage

    package let channel: WebSocketChannel

    /// Iterates the messages.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: channel) }

    /// Takes the next message as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: WebSocketChannel

        /// The next message, or `nil` once the socket has closed (or the task is cancelled).
        public mutating func next() async -> WebSocketMessage? { await channel.nextInbound() }
    }
}

/// Writes to a WebSocket from any task. Messages go out in the order they were queued; the
/// queue is bounded (`maximumQueuedBytes`), so a peer that does not read is closed with 1008
/// instead of growing the server's memory.
public struct WebSocketOutbound: Sendable {
    package let channel: WebSocketChannel

    /// Queues `message`, waiting while the queue is full; after `slowReaderTimeoutMilliseconds`
    /// of waiting the peer counts as a slow reader and the socket closes.
    /// - Throws: `WebSocketError` `closed`, `slowReader`, or `messageTooBig`.
    public func send(_ message: WebSocketMessage) async throws { try await channel.send(message) }

    /// Queues a text message, waiting while the queue is full.
    /// - Throws: as `send(_:)`.
    public func send(text: String) async throws { try await channel.send(.text(text)) }

    /// Queues `message` without waiting: for fan-out to many sockets, where one slow peer must
    /// not hold up the others. When it does not fit, the socket closes with 1008.
    /// - Throws: `WebSocketError` `closed` or `slowReader`.
    public func sendNow(_ message: WebSocketMessage) throws { try channel.sendNow(message) }

    /// Queues `message` if the queue has room for it now, without waiting and without counting
    /// the peer as a slow reader when it has not: for a caller that has another way to deliver
    /// it later (the messenger's mailbox).
    /// - Returns: whether it was queued (`false` also once the socket is closing).
    public func sendIfRoom(_ message: WebSocketMessage) -> Bool { channel.sendIfRoom(message) }

    /// Closes the socket after what is already queued.
    /// - Parameters:
    ///   - code: the close code; 1000 by default.
    ///   - reason: a short reason (cut to 123 bytes).
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        channel.close(WebSocketClose(code, reason: reason))
    }
}
