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
    private let stopping = StopFlag()

    init(socket: any RealtimeSocket, client: MessengerClient) {
        let (events, sink) = AsyncStream.makeStream(of: IncomingEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        self.socket = socket
        let stopping = self.stopping
        reader = Task {
            while let message = await socket.receive() {
                guard !stopping.isSet else { break }
                guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
                    frame["type"]?.stringValue == "request", let id = frame["id"]?.intValue
                else { continue }
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
                guard acknowledge else { continue }
                try? await socket.send(.text(#"{"type":"response","id":\#(id),"status":200}"#))
            }
            sink.finish()
        }
    }

    /// Closes the socket; `events` finishes after the envelope being processed, if any. What the
    /// socket delivers from now on is not processed: the server keeps it for the next catch-up.
    public func stop() {
        stopping.set()
        socket.close()
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

/// A flag set once, read from any thread.
private final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
