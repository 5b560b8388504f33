import Synchronization

/// What a channel asks of the engine that carries it; both may be called from any thread.
package struct WebSocketChannelTransport: Sendable {
    /// The channel has something to write (a message or its close): wake the loop and ask for a
    /// writable callback.
    package let wantsToWrite: @Sendable () -> Void
    /// The reader has taken enough of the buffered messages: read the socket again.
    package let resumeReading: @Sendable () -> Void

    /// A transport calling `wantsToWrite` and `resumeReading`.
    package init(wantsToWrite: @escaping @Sendable () -> Void, resumeReading: @escaping @Sendable () -> Void) {
        self.wantsToWrite = wantsToWrite
        self.resumeReading = resumeReading
    }
}

/// The state of one WebSocket shared by the engine's loop thread and the tasks that read and
/// send: the inbound buffer, the outbound queue with its waiting senders, and how it closed.
///
/// Engine-neutral: the libwebsockets server and client (and any other carrier) drive it through
/// `received`, `nextOutgoing`, `checkSlowReader` and `ended`, and learn what to do from their
/// results and from the `WebSocketChannelTransport` calls.
package final class WebSocketChannel: Sendable {
    /// What the engine writes next.
    package enum Outgoing: Sendable, Equatable {
        case message(WebSocketMessage)
        case close(WebSocketClose)
    }

    fileprivate struct Waiting {
        let message: WebSocketMessage
        let continuation: CheckedContinuation<Void, any Error>
    }

    fileprivate struct State {
        var inbound = ReaderQueue<WebSocketMessage, Never>()
        var readingPaused = false
        var outbound = FIFO<Outgoing>()
        var queuedBytes = 0
        var senders: [Waiting] = []
        /// Since when a sender has waited for room without the queue draining (monotonic ns).
        var stalledSince: UInt64?
        /// The close this side queued (or the engine sent): nothing more may be sent.
        var closing: WebSocketClose?
        /// The peer's close frame, when it sent one.
        var peerClose: WebSocketClose?
        /// How the connection ended, once it has.
        var ended: WebSocketClose?
        var endWaiters: [CheckedContinuation<WebSocketClose, Never>] = []
        /// Takes each message instead of a reading task (`handleEachMessage`).
        var messageHandler: (@Sendable (WebSocketMessage) -> Void)?
        /// A thread is handing buffered messages to `messageHandler`: new ones join the buffer.
        var handing = false
        /// Called once with how the connection ended, after the last message was handed over.
        var endHandler: (@Sendable (WebSocketClose) -> Void)?

        /// Queues `message` (`size` bytes) when no sender waits and it fits under `limit`.
        /// - Returns: `nil` when it did not fit; else whether the queue was empty before it (the
        ///   engine must then be woken).
        mutating func queueIfRoom(_ message: WebSocketMessage, size: Int, limit: Int) -> Bool? {
            guard senders.isEmpty, queuedBytes + size <= limit else { return nil }
            let wasEmpty = outbound.isEmpty
            outbound.append(.message(message))
            queuedBytes += size
            return wasEmpty
        }
    }

    package let configuration: WebSocketConfiguration
    private let transport: WebSocketChannelTransport
    private let now: @Sendable () -> UInt64
    fileprivate let state = Mutex(State())

    /// A channel whose engine is reached through `transport`; `now` is a monotonic clock in
    /// nanoseconds (the slow-reader deadline is measured with it).
    package init(
        configuration: WebSocketConfiguration, transport: WebSocketChannelTransport,
        now: @escaping @Sendable () -> UInt64
    ) {
        self.configuration = configuration
        self.transport = transport
        self.now = now
    }

    // MARK: - Senders (any task)

    /// Queues `message`, waiting while the queue is full.
    package func send(_ message: WebSocketMessage) async throws {
        let size = message.byteCount
        guard size <= configuration.maximumQueuedBytes else {
            throw WebSocketError(
                .messageTooBig, "a \(size)-byte message is over the \(configuration.maximumQueuedBytes)-byte queue")
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            // Resumed after the lock is let go, as every sender's continuation here.
            let (outcome, wake) = state.withLock { state -> (Result<Void, WebSocketError>?, Bool) in
                if let close = state.closing ?? state.ended { return (.failure(Self.closedError(close)), false) }
                if let wasEmpty = state.queueIfRoom(message, size: size, limit: configuration.maximumQueuedBytes) {
                    return (.success(()), wasEmpty)
                }
                if state.stalledSince == nil { state.stalledSince = now() }
                state.senders.append(Waiting(message: message, continuation: continuation))
                return (nil, false)
            }
            if wake { transport.wantsToWrite() }
            if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
        }
    }

    /// Queues `message` without waiting; when it does not fit, the peer is a slow reader: the
    /// socket is closed with 1008 and this throws `slowReader`.
    package func sendNow(_ message: WebSocketMessage) throws {
        let size = message.byteCount
        let (wake, error, cutOff) = state.withLock { state -> (Bool, WebSocketError?, [Waiting]) in
            if let close = state.closing ?? state.ended { return (false, Self.closedError(close), []) }
            if let wasEmpty = state.queueIfRoom(message, size: size, limit: configuration.maximumQueuedBytes) {
                return (wasEmpty, nil, [])
            }
            let cutOff = Self.cutOffSlowReader(&state)
            return (true, WebSocketError(.slowReader, "the peer is not reading; the socket is closing"), cutOff)
        }
        Self.failSlowReaders(cutOff)
        if wake { transport.wantsToWrite() }
        if let error { throw error }
    }

    /// Queues `message` if it fits now (no sender waiting, room in the queue) and tells whether
    /// it did; a message that does not fit, or a closing socket, leaves everything as it was.
    package func sendIfRoom(_ message: WebSocketMessage) -> Bool {
        let size = message.byteCount
        let wake = state.withLock { state -> Bool? in
            guard state.closing == nil, state.ended == nil else { return nil }
            return state.queueIfRoom(message, size: size, limit: configuration.maximumQueuedBytes)
        }
        if wake == true { transport.wantsToWrite() }
        return wake != nil
    }

    /// Queues a close after what is already queued; senders still waiting fail with `closed`.
    package func close(_ close: WebSocketClose) {
        let (wake, waiting) = state.withLock { state -> (Bool, [Waiting]) in
            guard state.closing == nil, state.ended == nil else { return (false, []) }
            state.closing = close
            let waiting = state.senders
            state.senders = []
            state.stalledSince = nil
            let wasEmpty = state.outbound.isEmpty
            state.outbound.append(.close(close))
            return (wasEmpty, waiting)
        }
        for sender in waiting { sender.continuation.resume(throwing: Self.closedError(close)) }
        if wake { transport.wantsToWrite() }
    }

    /// Waits until the connection has ended, and tells how.
    package func waitUntilEnded() async -> WebSocketClose {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> WebSocketClose? in
                if let ended = state.ended { return ended }
                state.endWaiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// How the connection ended, or `nil` while it is open.
    package var endedClose: WebSocketClose? { state.withLock { $0.ended } }
    /// The close this side queued or decided (the engine's own included), if any: decided, not
    /// necessarily written, as the connection may have dropped first.
    package var sentClose: WebSocketClose? { state.withLock { $0.closing } }

    // MARK: - The reader (one task at a time)

    /// The next inbound message, or `nil` once the socket has ended (or the reading task is
    /// cancelled).
    package func nextInbound() async -> WebSocketMessage? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WebSocketMessage?, Never>) in
                let resume = state.withLock { state -> Bool in
                    // Cancellation is checked under the lock: one that lands before it finds
                    // nothing parked in `onCancel` (which takes the lock too), and must not park
                    // here. A socket served by a message handler has no reader: its messages are
                    // the handler's.
                    if Task.isCancelled || state.messageHandler != nil || state.handing {
                        continuation.resume(returning: nil)
                        return false
                    }
                    if let message = state.inbound.take() {
                        continuation.resume(returning: message)
                        if state.readingPaused, state.inbound.count <= configuration.maximumBufferedMessages / 2 {
                            state.readingPaused = false
                            return state.ended == nil
                        }
                        return false
                    }
                    if state.ended != nil || state.inbound.hasReader {
                        // Ended, or another task is already reading: nothing for this one.
                        continuation.resume(returning: nil)
                    } else {
                        state.inbound.park(continuation)
                    }
                    return false
                }
                if resume { transport.resumeReading() }
            }
        } onCancel: {
            let reader = state.withLock { $0.inbound.unpark() }
            reader?.resume(returning: nil)
        }
    }

    // MARK: - A message handler instead of a reader

    /// From now on hands every message to `handler` instead of buffering it for a reading task:
    /// first those already buffered (and any that arrive while they are handed over), on this
    /// thread, then each as it arrives, on the engine's thread; one at a time and in order. The
    /// handler is dropped when the connection ends; a connection that ended before this call
    /// still has its buffered messages handed over. `onEnd` is called once, with how the
    /// connection ended, after the last message was handed over.
    package func handleEachMessage(
        _ handler: @escaping @Sendable (WebSocketMessage) -> Void,
        onEnd: (@Sendable (WebSocketClose) -> Void)? = nil
    ) {
        state.withLock { state in
            assert(state.messageHandler == nil && state.endHandler == nil, "handlers are set once per socket")
            if state.ended == nil { state.messageHandler = handler }
            state.endHandler = onEnd
            state.handing = true
        }
        handBuffered(to: handler)
    }

    /// An end handler and the close to tell it, called once the lock is let go.
    private typealias EndCall = (handler: @Sendable (WebSocketClose) -> Void, close: WebSocketClose)

    /// Hands what is buffered to `handler` until the buffer is empty, then lets `received` call
    /// it directly; reading resumes if a full buffer had paused it.
    private func handBuffered(to handler: @Sendable (WebSocketMessage) -> Void) {
        while true {
            let (message, resume, end) = state.withLock { state -> (WebSocketMessage?, Bool, EndCall?) in
                if let message = state.inbound.take() { return (message, false, nil) }
                state.handing = false
                defer { state.readingPaused = false }
                // The connection ended while the buffer was handed over: its end is told here,
                // after the last message.
                var end: EndCall?
                if let close = state.ended, let handler = state.endHandler {
                    end = (handler, close)
                    state.endHandler = nil
                }
                return (nil, state.readingPaused && state.ended == nil, end)
            }
            guard let message else {
                if resume { transport.resumeReading() }
                if let end { end.handler(end.close) }
                return
            }
            handler(message)
        }
    }

    // MARK: - The engine (its loop thread)

    /// A whole message has arrived.
    /// - Returns: whether to go on reading the socket (`false`: the buffer is full; the channel
    ///   calls `resumeReading` once the reader has taken half of it).
    package func received(_ message: WebSocketMessage) -> Bool {
        typealias Handler = @Sendable (WebSocketMessage) -> Void
        let (reader, handler, goOn) = state.withLock {
            state -> (CheckedContinuation<WebSocketMessage?, Never>?, Handler?, Bool) in
            // Checked in the same critical section as the buffering below: a message that finds
            // the buffered ones still being handed over joins them, and the hand-over sees it.
            if let handler = state.messageHandler, !state.handing { return (nil, handler, true) }
            if let reader = state.inbound.offer(message) { return (reader, nil, true) }
            if state.inbound.count >= configuration.maximumBufferedMessages {
                state.readingPaused = true
                return (nil, nil, false)
            }
            return (nil, nil, true)
        }
        handler?(message)
        // Resumed after the lock: resuming schedules the reader's task, which can wake a thread,
        // and the reader's next `nextInbound` would spin on the lock meanwhile.
        reader?.resume(returning: message)
        return goOn
    }

    /// The next thing to write, if any; room it frees lets waiting senders in.
    package func nextOutgoing() -> Outgoing? {
        let (next, admitted) = state.withLock { state -> (Outgoing?, [CheckedContinuation<Void, any Error>]) in
            guard let next = state.outbound.pop() else { return (nil, []) }
            if case .message(let message) = next { state.queuedBytes -= message.byteCount }
            var admitted: [CheckedContinuation<Void, any Error>] = []
            while let first = state.senders.first,
                state.queuedBytes + first.message.byteCount <= configuration.maximumQueuedBytes
            {
                state.senders.removeFirst()
                state.outbound.append(.message(first.message))
                state.queuedBytes += first.message.byteCount
                admitted.append(first.continuation)
            }
            // The queue moved: a sender still waiting starts its wait afresh.
            state.stalledSince = state.senders.isEmpty ? nil : now()
            return (next, admitted)
        }
        // Their messages are queued in order already; the senders are resumed outside the lock.
        for sender in admitted { sender.resume() }
        return next
    }

    /// Whether something waits to be written.
    package var hasOutgoing: Bool { state.withLock { !$0.outbound.isEmpty } }

    /// Senders waiting for room in the queue.
    package var waitingSenderCount: Int { state.withLock { $0.senders.count } }

    /// Closes the socket with 1008 when a sender has waited for room longer than the slow-reader
    /// timeout.
    /// - Returns: whether the channel now has a close to write.
    package func checkSlowReader() -> Bool {
        let cutOff = state.withLock { state -> [Waiting]? in
            guard let since = state.stalledSince, state.closing == nil, state.ended == nil else { return nil }
            let limit = UInt64(max(0, configuration.slowReaderTimeoutMilliseconds)) * 1_000_000
            guard now() &- since >= limit else { return nil }
            return Self.cutOffSlowReader(&state)
        }
        guard let cutOff else { return false }
        Self.failSlowReaders(cutOff)
        return true
    }

    /// The peer sent a close frame.
    package func peerClosed(_ close: WebSocketClose) {
        state.withLock { state in
            if state.peerClose == nil { state.peerClose = close }
        }
    }

    /// The engine closed the socket itself (a protocol error, an oversized message, idle).
    package func engineClosing(_ close: WebSocketClose) {
        state.withLock { state in
            if state.closing == nil { state.closing = close }
        }
    }

    /// The connection is gone: the peer's close if it sent one, else this side's, else 1006.
    /// The reader gets `nil` once it has taken what is buffered; senders fail with `closed`.
    package func ended() {
        let (reader, waiters, senders, endHandler, close) = state.withLock {
            state -> (
                CheckedContinuation<WebSocketMessage?, Never>?, [CheckedContinuation<WebSocketClose, Never>],
                [Waiting], (@Sendable (WebSocketClose) -> Void)?, WebSocketClose
            ) in
            if let ended = state.ended { return (nil, [], [], nil, ended) }
            let close = state.peerClose ?? state.closing ?? WebSocketClose(.abnormalClosure)
            state.ended = close
            let senders = state.senders
            state.senders = []
            state.stalledSince = nil
            state.outbound = FIFO()
            state.queuedBytes = 0
            let reader = state.inbound.unpark()
            let waiters = state.endWaiters
            state.endWaiters = []
            state.messageHandler = nil
            // While buffered messages are being handed over, their thread tells the end after them.
            let endHandler = state.handing ? nil : state.endHandler
            if !state.handing { state.endHandler = nil }
            return (reader, waiters, senders, endHandler, close)
        }
        let error = Self.closedError(close)
        for sender in senders { sender.continuation.resume(throwing: error) }
        reader?.resume(returning: nil)
        for waiter in waiters { waiter.resume(returning: close) }
        endHandler?(close)
    }

    // MARK: -

    private static let slowReaderClose = WebSocketClose(.policyViolation, reason: "slow reader")

    /// Drops what is queued and queues a 1008 close in its place.
    /// - Returns: the senders that waited, for `failSlowReaders` once the lock is let go.
    private static func cutOffSlowReader(_ state: inout State) -> [Waiting] {
        let close = slowReaderClose
        state.closing = close
        let senders = state.senders
        state.senders = []
        state.stalledSince = nil
        state.outbound = FIFO()
        state.outbound.append(.close(close))
        state.queuedBytes = 0
        return senders
    }

    /// Fails the senders a slow reader's cut-off left waiting.
    private static func failSlowReaders(_ senders: [Waiting]) {
        guard !senders.isEmpty else { return }
        let error = WebSocketError(
            .slowReader, "the peer did not read in time; the socket is closing", close: slowReaderClose)
        for sender in senders { sender.continuation.resume(throwing: error) }
    }

    private static func closedError(_ close: WebSocketClose) -> WebSocketError {
        WebSocketError(.closed, "the WebSocket is closed (\(close))", close: close)
    }
}

extension WebSocketChannel {
    /// Whether a sender waits for room (tests synchronise on it).
    package var hasWaitingSender: Bool { state.withLock { !$0.senders.isEmpty } }
    /// Whether a reader waits for a message (tests synchronise on it).
    package var hasWaitingReader: Bool { state.withLock { $0.inbound.hasReader } }
    /// Whether a close has been queued or decided: nothing more will be sent (an engine bounds
    /// how long the close may wait for a peer that does not read).
    package var isClosing: Bool { state.withLock { $0.closing != nil || $0.ended != nil } }
}
