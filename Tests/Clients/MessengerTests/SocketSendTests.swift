import CourierCore
import CourierHTTPClient
import CourierTesting
import Foundation
import Messenger
import Realtime
import Synchronization
import Testing

/// Sends on the open delivery socket, as Signal's clients make them, and over HTTP when there
/// is none or it closes before answering.
@Suite(.timeLimit(.minutes(3)))
struct SocketSendTests {
    @Test func aSendWhileTheDeliverySocketIsOpenGoesOnItAndOverHTTPOnceItIsClosed() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (alice, bob) = (try await server.register("alice"), try await server.register("bob"))
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let recording = RecordingTransport(
            WebSocketTransport(client: sockets, url: alice.deliverySocketURL) { [alice] in [alice.authorizationHeader] }
        )
        let listener = try await alice.listen(transport: recording)
        try await alice.send(text: "on the socket", to: bob.credentials.accountId)
        #expect(
            recording.requests(verb: "PUT").map { $0["path"]?.stringValue } == [
                "/v1/messages/\(bob.credentials.accountId)"
            ])
        #expect(try await bob.sync().bodies == ["on the socket"])

        listener.stop()
        await listener.finished()
        try await alice.send(text: "over HTTP", to: bob.credentials.accountId)
        #expect(recording.requests(verb: "PUT").count == 1, "a closed socket takes no request")
        #expect(try await bob.sync().bodies == ["over HTTP"])
    }

    @Test func aSendWhoseSocketClosesBeforeItsAnswerGoesOverHTTPAndIsStoredOnce() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (alice, bob) = (try await server.register("alice"), try await server.register("bob"))
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        // The request goes out, and the socket closes before the server's answer can come back.
        let closing = RecordingTransport(
            WebSocketTransport(client: sockets, url: alice.deliverySocketURL) { [alice] in [alice.authorizationHeader]
            },
            closesAfterARequest: true)
        let listener = try await alice.listen(transport: closing)
        let sent = try await alice.send(text: "once", to: bob.credentials.accountId)
        #expect(sent.state == .sent)
        #expect(closing.requests(verb: "PUT").count == 1)
        await listener.finished()
        // Sent twice (the socket, then HTTP) under one client message id: stored once.
        #expect(try await bob.sync().bodies == ["once"])
    }

    @Test func aCancelledSendStopsWaitingForItsAnswerAndStaysQueued() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (alice, bob) = (try await server.register("alice"), try await server.register("bob"))
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        // The socket stays open, and the server never sees (so never answers) the send.
        let swallowing = RecordingTransport(
            WebSocketTransport(client: sockets, url: alice.deliverySocketURL) { [alice] in [alice.authorizationHeader]
            },
            swallowsSends: true)
        let listener = try await alice.listen(transport: swallowing)
        let send = Task { try await alice.send(text: "later", to: bob.credentials.accountId) }
        await swallowing.aSendWasSwallowed()
        send.cancel()
        let outcome = await send.result
        #expect(throws: MessengerClientError.self) { try outcome.get() }
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        #expect(try await alice.messages(in: conversation).map(\.state) == [.sending])

        listener.stop()
        await listener.finished()
        server.clientClock.advance(by: .seconds(3600))
        #expect(try await alice.retryPendingSends().map(\.body) == ["later"])
        #expect(try await bob.sync().bodies == ["later"])
    }
}

/// Wraps a transport and records the frames its sockets send; optionally closes a socket right
/// after it sent a request, or that keeps sends from the server (they are never answered).
private final class RecordingTransport: RealtimeTransport {
    private let inner: any RealtimeTransport
    fileprivate let closesAfterARequest: Bool
    fileprivate let swallowsSends: Bool
    private let sent = Mutex<[String]>([])
    private let swallowed: AsyncStream<Void>
    fileprivate let swallow: AsyncStream<Void>.Continuation

    init(_ inner: any RealtimeTransport, closesAfterARequest: Bool = false, swallowsSends: Bool = false) {
        self.inner = inner
        self.closesAfterARequest = closesAfterARequest
        self.swallowsSends = swallowsSends
        (swallowed, swallow) = AsyncStream.makeStream()
    }

    /// Returns once a send has been kept from the server.
    func aSendWasSwallowed() async {
        var iterator = swallowed.makeAsyncIterator()
        _ = await iterator.next()
    }

    func connect() async throws -> any RealtimeSocket { RecordingSocket(inner: try await inner.connect(), owner: self) }

    /// The request frames sent with `verb`, in order.
    func requests(verb: String) -> [JSONValue] {
        sent.withLock { $0 }.compactMap { try? JSONParser.parse($0) }.filter {
            $0["type"]?.stringValue == "request" && $0["verb"]?.stringValue == verb
        }
    }

    fileprivate func record(_ text: String) { sent.withLock { $0.append(text) } }
}

private struct RecordingSocket: RealtimeSocket {
    let inner: any RealtimeSocket
    let owner: RecordingTransport

    func send(_ message: WebSocketMessage) async throws {
        guard case .text(let text) = message else { return try await inner.send(message) }
        owner.record(text)
        if owner.swallowsSends && text.contains("\"PUT\"") {
            owner.swallow.yield()
            return
        }
        try await inner.send(message)
        if owner.closesAfterARequest && text.contains("\"verb\"") { inner.close() }
    }

    func receive() async -> WebSocketMessage? { await inner.receive() }
    func close() { inner.close() }
}
