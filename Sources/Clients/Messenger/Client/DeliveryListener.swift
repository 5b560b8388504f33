import CourierCore
import CourierHTTPClient
import Realtime
import Synchronization

/// Reads the delivery socket (`GET /v1/websocket`, Signal's request/response framing): the
/// envelopes that arrive together (waiting on the socket, or arriving while others are processed;
/// at most `batchLimit`) are decrypted and stored in one transaction and only then answered with
/// the 200s that acknowledge them; `keys/low` uploads new one-time prekeys.
///
/// Realtime's `RealtimeConnection` is not used for this: its inbox stores an item and
/// acknowledges it before the app sees it, and an envelope must be acknowledged only after its
/// plaintext and ratchet state commit. The socket comes from a Realtime transport
/// (`WebSocketTransport` over CourierHTTP's `WebSocketClient`). A message that leaves a hole in
/// its conversation's `serverSeq`s starts a catch-up over HTTP. One listener serves one socket;
/// reconnecting (and catching up with `sync()` first) is the caller's.
public final class DeliveryListener: Sendable {
    /// The most frames processed together, so the envelopes among them share one commit.
    static let batchLimit = 64

    /// What the envelopes produced, in delivery order; finishes when the socket closes.
    public let events: AsyncStream<IncomingEvent>
    private let socket: any RealtimeSocket
    private let reader: Task<Void, Never>
    /// Set by `stop()`: what the socket still delivers is left on the server, unacknowledged.
    private let progress = ListenerProgress()
    /// The device's requests on this socket (its sends), answered as the answers arrive.
    let requests: SocketRequests

    init(socket: any RealtimeSocket, client: MessengerClient) {
        let (events, sink) = AsyncStream.makeStream(of: IncomingEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        self.socket = socket
        let requests = SocketRequests(socket: socket)
        self.requests = requests
        let progress = self.progress
        reader = Task {
            // A second task reads the socket meanwhile, so the frames that arrive while a batch is
            // processed are there, together, for the next one.
            let queue = DeliveryFrameQueue(capacity: Self.batchLimit)
            // The device's sends go on this socket while it is open (`listen` has registered it
            // already; a `DeliveryConnection`'s listener is registered here). Their answers are
            // taken as they arrive, not behind the deliveries being processed.
            await client.useSocket(requests)
            let receiving = Task {
                while let message = await socket.receive() {
                    if requests.receive(message) { continue }
                    await queue.append(message)
                }
                requests.close()
                await client.releaseSocket(requests)
                queue.finish()
            }
            while let frames = await queue.next(upTo: Self.batchLimit) {
                guard progress.begin() else { break }
                await Self.process(frames, on: socket, client: client, sink: sink)
                // Stopped while this batch was processed: its acks are out, so the socket closes now.
                if progress.end() {
                    socket.close()
                    break
                }
            }
            queue.close()
            await receiving.value
            sink.finish()
        }
    }

    /// Handles frames from the server in order: consecutive envelopes are decrypted and stored in
    /// one transaction, their events yielded, and only then acknowledged; `keys/low` uploads new
    /// one-time prekeys.
    private static func process(
        _ messages: [WebSocketMessage], on socket: any RealtimeSocket, client: MessengerClient,
        sink: AsyncStream<IncomingEvent>.Continuation
    ) async {
        var envelopes: [(id: Int64, body: JSONValue)] = []
        for message in messages {
            guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
                frame["type"]?.stringValue == "request", let id = frame["id"]?.intValue
            else { continue }
            let path = frame["path"]?.stringValue
            if path == "/api/v1/message" {
                envelopes.append((id, frame["body"] ?? .null))
                continue
            }
            await receive(envelopes, on: socket, client: client, sink: sink)
            envelopes = []
            if path == "/api/v1/keys/low" {
                let count = Int(frame["body"]?["count"]?.intValue ?? 0)
                _ = try? await client.refillPreKeys(serverCount: count)
            }
            try? await socket.send(acknowledgement(id))
        }
        await receive(envelopes, on: socket, client: client, sink: sink)
    }

    /// Decrypts and stores `envelopes` in one transaction; after its commit yields their events in
    /// delivery order and acknowledges them, then catches up on the holes they reveal.
    private static func receive(
        _ envelopes: [(id: Int64, body: JSONValue)], on socket: any RealtimeSocket, client: MessengerClient,
        sink: AsyncStream<IncomingEvent>.Continuation
    ) async {
        guard !envelopes.isEmpty else { return }
        let results = await client.receive(socketEnvelopes: envelopes.map(\.body))
        for result in results {
            if let event = result.event { sink.yield(event) }
        }
        for (envelope, result) in zip(envelopes, results) where result.acknowledge {
            try? await socket.send(acknowledgement(envelope.id))
        }
        // A hole before these messages: what the socket skipped is fetched over HTTP, once per
        // conversation.
        var conversations: [String] = []
        for case .message(let message)? in results.map(\.event) where !conversations.contains(message.conversationId) {
            conversations.append(message.conversationId)
        }
        for conversation in conversations {
            _ = try? await client.catchUpIfGaps(in: conversation) { caught in
                if caught != .duplicate { sink.yield(caught) }
            }
        }
    }

    /// The 200 response that acknowledges the request `id`.
    private static func acknowledgement(_ id: Int64) -> WebSocketMessage {
        .text(#"{"type":"response","id":\#(id),"status":200}"#)
    }

    /// Closes the socket; `events` finishes after the batch of envelopes being processed, if any,
    /// which is still acknowledged first (its events are out and its plaintext stored). What the socket
    /// delivers from now on is not processed: the server keeps it for the next catch-up.
    public func stop() {
        if progress.stop() { socket.close() }
    }

    /// Waits until the socket has closed and every event was yielded.
    public func finished() async { await reader.value }
}

extension MessengerClient {
    /// Sends go on `requests`' socket from now on (a socket that has closed answers nothing, and
    /// sends go over HTTP).
    func useSocket(_ requests: SocketRequests) { socketRequests = requests }

    /// `requests`' socket closed: sends go over HTTP again, unless a newer socket is in use.
    func releaseSocket(_ requests: SocketRequests) {
        if socketRequests === requests { socketRequests = nil }
    }

    /// Opens the delivery socket through `transport`, starts processing what it delivers, and
    /// sends the queued messages whose retry is due.
    /// - Throws: the transport's error when the socket cannot be opened.
    public func listen(transport: any RealtimeTransport) async throws -> DeliveryListener {
        let listener = DeliveryListener(socket: try await transport.connect(), client: self)
        // Sends go on the socket from now on, the retries below included.
        useSocket(listener.requests)
        // Connected again: the sends whose retry is due go now.
        _ = try? await retryPendingSends()
        return listener
    }

    /// The delivery socket's URL for this server (`ws`/`wss` from `http`/`https`).
    public nonisolated var deliverySocketURL: String { Self.socketURL(configuration.serverURL, path: "/v1/websocket") }

    /// The `Authorization` header for the delivery socket.
    public nonisolated var authorizationHeader: (String, String) { ("Authorization", credentials.authorization) }
}

/// Whether the reader is processing a batch of frames and whether `stop()` was called: a batch
/// being processed finishes, acks included, and the reader closes the socket after it; an idle
/// reader's socket is closed by `stop()` itself.
private final class ListenerProgress: Sendable {
    private let state = Mutex((processing: false, stopping: false))

    /// Frames arrived: returns `false` when stopped, and they are left unprocessed.
    func begin() -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.processing = true
            return true
        }
    }

    /// The batch is done: returns whether `stop()` came meanwhile (the reader closes the socket).
    func end() -> Bool {
        state.withLock { state in
            state.processing = false
            return state.stopping
        }
    }

    /// Stops; returns whether the reader is idle (the caller closes the socket).
    func stop() -> Bool {
        state.withLock { state in
            state.stopping = true
            return !state.processing
        }
    }
}
