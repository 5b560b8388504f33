import CourierCore
import CourierHTTPClient
import Realtime
import Synchronization

/// Reads the delivery socket (`GET /v1/websocket`, Signal's request/response framing): each
/// envelope is decrypted and stored in one transaction and only then answered with the 200 that
/// acknowledges it; `keys/low` uploads new one-time prekeys.
///
/// Realtime's `RealtimeConnection` is not used for this: its inbox stores an item and
/// acknowledges it before the app sees it, and an envelope must be acknowledged only after its
/// plaintext and ratchet state commit. The socket comes from a Realtime transport
/// (`WebSocketTransport` over CourierHTTP's `WebSocketClient`). A message that leaves a hole in
/// its conversation's `serverSeq`s starts a catch-up over HTTP. One listener serves one socket;
/// reconnecting (and catching up with `sync()` first) is the caller's.
public final class DeliveryListener: Sendable {
    /// What the envelopes produced, in delivery order; finishes when the socket closes.
    public let events: AsyncStream<IncomingEvent>
    private let socket: any RealtimeSocket
    private let reader: Task<Void, Never>
    /// Set by `stop()`: what the socket still delivers is left on the server, unacknowledged.
    private let progress = ListenerProgress()

    init(socket: any RealtimeSocket, client: MessengerClient) {
        let (events, sink) = AsyncStream.makeStream(of: IncomingEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        self.socket = socket
        let progress = self.progress
        reader = Task {
            while let message = await socket.receive() {
                guard progress.begin() else { break }
                await Self.process(message, on: socket, client: client, sink: sink)
                // Stopped while this frame was processed: its ack is out, so the socket closes now.
                if progress.end() {
                    socket.close()
                    break
                }
            }
            sink.finish()
        }
    }

    /// Handles one frame from the server: an envelope is decrypted and stored, its events
    /// yielded, and only then acknowledged; `keys/low` uploads new one-time prekeys.
    private static func process(
        _ message: WebSocketMessage, on socket: any RealtimeSocket, client: MessengerClient,
        sink: AsyncStream<IncomingEvent>.Continuation
    ) async {
        guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
            frame["type"]?.stringValue == "request", let id = frame["id"]?.intValue
        else { return }
        var acknowledge = true
        switch frame["path"]?.stringValue {
        case "/api/v1/message":
            let (event, ack) = await client.receive(socketEnvelope: frame["body"] ?? .null)
            if let event { sink.yield(event) }
            acknowledge = ack
            // A hole before this message: what the socket skipped is fetched over HTTP.
            if case .message(let message) = event {
                _ = try? await client.catchUpIfGaps(in: message.conversationId) { caught in
                    if caught != .duplicate { sink.yield(caught) }
                }
            }
        case "/api/v1/keys/low":
            let count = Int(frame["body"]?["count"]?.intValue ?? 0)
            _ = try? await client.refillPreKeys(serverCount: count)
        default:
            break
        }
        guard acknowledge else { return }
        try? await socket.send(.text(#"{"type":"response","id":\#(id),"status":200}"#))
    }

    /// Closes the socket; `events` finishes after the envelope being processed, if any, which is
    /// still acknowledged first (its event is out and its plaintext stored). What the socket
    /// delivers from now on is not processed: the server keeps it for the next catch-up.
    public func stop() {
        if progress.stop() { socket.close() }
    }

    /// Waits until the socket has closed and every event was yielded.
    public func finished() async { await reader.value }
}

extension MessengerClient {
    /// Opens the delivery socket through `transport`, starts processing what it delivers, and
    /// sends the queued messages whose retry is due.
    /// - Throws: the transport's error when the socket cannot be opened.
    public func listen(transport: any RealtimeTransport) async throws -> DeliveryListener {
        let listener = DeliveryListener(socket: try await transport.connect(), client: self)
        // Connected again: the sends whose retry is due go now.
        _ = try? await retryPendingSends()
        return listener
    }

    /// The delivery socket's URL for this server (`ws`/`wss` from `http`/`https`).
    public nonisolated var deliverySocketURL: String { Self.socketURL(configuration.serverURL, path: "/v1/websocket") }

    /// The `Authorization` header for the delivery socket.
    public nonisolated var authorizationHeader: (String, String) { ("Authorization", credentials.authorization) }
}

/// Whether the reader is processing a frame and whether `stop()` was called: a frame being
/// processed finishes, ack included, and the reader closes the socket after it; an idle reader's
/// socket is closed by `stop()` itself.
private final class ListenerProgress: Sendable {
    private let state = Mutex((processing: false, stopping: false))

    /// A frame arrived: returns `false` when stopped, and the frame is left unprocessed.
    func begin() -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.processing = true
            return true
        }
    }

    /// The frame is done: returns whether `stop()` came meanwhile (the reader closes the socket).
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
