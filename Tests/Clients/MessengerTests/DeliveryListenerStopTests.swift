import CourierCore
import CourierHTTPClient
import CourierTesting
import Foundation
import Realtime
import Synchronization
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(3)))
struct DeliveryListenerStopTests {
    /// `stop()` right after an event: the envelope it came from is committed, so its ack still
    /// goes out before the socket closes, and the server does not deliver it again.
    @Test func stoppingRightAfterAnEventStillAcknowledgesItsEnvelope() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        let transport = AckHoldingTransport(
            WebSocketTransport(client: sockets, url: bob.deliverySocketURL) { [bob] in [bob.authorizationHeader] })
        let listener = try await bob.listen(transport: transport)
        try await alice.send(text: "acknowledged", to: bob.credentials.accountId)

        var events = listener.events.makeAsyncIterator()
        #expect(await events.next()?.summary == "message acknowledged")
        await transport.ackReached()  // the listener is about to acknowledge the envelope
        listener.stop()
        transport.releaseAcks()
        await listener.finished()

        #expect(transport.acksSent == 1, "the ack went out before the socket closed")
        #expect(
            try await poll { try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes.isEmpty },
            "the server deleted the acknowledged envelope")
    }
}

/// Wraps a transport's socket and holds each ack of a delivered message until the test
/// releases it, so a test can act while the listener is between its commit and its ack.
private final class AckHoldingTransport: RealtimeTransport {
    private let inner: any RealtimeTransport
    private let state = Mutex(HoldState())

    init(_ inner: any RealtimeTransport) { self.inner = inner }

    func connect() async throws -> any RealtimeSocket { HoldingSocket(inner: try await inner.connect(), owner: self) }

    /// How many held acks the socket accepted after their release.
    var acksSent: Int { state.withLock { $0.sent } }

    /// Returns once an ack is being held.
    func ackReached() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.held > 0 { return true }
                state.reached.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets every held ack, and every later one, go to the socket.
    func releaseAcks() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    fileprivate func noteMessage(id: Int64) { state.withLock { _ = $0.messageIds.insert(id) } }

    /// Holds `text` when it acknowledges a delivered message; returns whether it does.
    fileprivate func hold(_ text: String) async -> Bool {
        guard let frame = try? JSONParser.parse(text), let id = frame["id"]?.intValue,
            state.withLock({ $0.messageIds.contains(id) })
        else { return false }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (go, reached) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.held += 1
                defer { state.reached = [] }
                if state.released { return (true, state.reached) }
                state.waiting.append(continuation)
                return (false, state.reached)
            }
            for waiter in reached { waiter.resume() }
            if go { continuation.resume() }
        }
        return true
    }

    fileprivate func sent() { state.withLock { $0.sent += 1 } }

    private struct HoldState {
        var messageIds: Set<Int64> = []
        var held = 0
        var sent = 0
        var released = false
        var reached: [CheckedContinuation<Void, Never>] = []
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
}

private final class HoldingSocket: RealtimeSocket {
    private let inner: any RealtimeSocket
    private let owner: AckHoldingTransport

    init(inner: any RealtimeSocket, owner: AckHoldingTransport) {
        self.inner = inner
        self.owner = owner
    }

    func send(_ message: WebSocketMessage) async throws {
        guard case .text(let text) = message, text.contains(#""type":"response""#) else {
            return try await inner.send(message)
        }
        let acknowledgesAMessage = await owner.hold(text)
        try await inner.send(message)
        if acknowledgesAMessage { owner.sent() }
    }

    func receive() async -> WebSocketMessage? {
        let message = await inner.receive()
        if let id = DeliveryFrames.envelopeRequestId(message) { owner.noteMessage(id: id) }
        return message
    }

    func close() { inner.close() }
}
