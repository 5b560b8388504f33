import CourierHTTP
import Realtime
import Synchronization

/// A `RealtimeTransport` for unit tests: connects succeed or fail as scripted, and each socket
/// is a `FakeRealtimeSocket` whose faults a test injects (drop, half-open).
public final class FakeRealtimeTransport: RealtimeTransport {
    private struct State {
        var failuresToCome = 0
        var sockets: [FakeRealtimeSocket] = []
        var attempts = 0
    }

    private let state = Mutex(State())
    private let responder: @Sendable (WebSocketMessage) -> [WebSocketMessage]

    /// A transport whose sockets answer each sent message with `responder`'s replies.
    public init(responder: @escaping @Sendable (WebSocketMessage) -> [WebSocketMessage] = { _ in [] }) {
        self.responder = responder
    }

    /// The next `count` connects fail.
    public func failNextConnects(_ count: Int) { state.withLock { $0.failuresToCome = count } }

    /// Connects attempted so far.
    public var attempts: Int { state.withLock { $0.attempts } }

    /// Every socket opened, oldest first.
    public var sockets: [FakeRealtimeSocket] { state.withLock { $0.sockets } }

    /// Opens a fake socket, or fails as scripted.
    /// - Throws: `FakeSocketFailure` when scripted to fail.
    public func connect() async throws -> any RealtimeSocket {
        let socket = try state.withLock { state throws(FakeSocketFailure) -> FakeRealtimeSocket in
            state.attempts += 1
            if state.failuresToCome > 0 {
                state.failuresToCome -= 1
                throw FakeSocketFailure(description: "scripted connect failure")
            }
            let socket = FakeRealtimeSocket(responder: responder)
            state.sockets.append(socket)
            return socket
        }
        return socket
    }
}

/// One fake socket: records what the client sends, delivers what the test (or the responder)
/// says, and fails on command.
public final class FakeRealtimeSocket: RealtimeSocket {
    private struct State {
        var sent: [WebSocketMessage] = []
        var inbound = ReaderQueue<WebSocketMessage, Never>()
        var closed = false
        var halfOpen = false
    }

    private let state = Mutex(State())
    private let responder: @Sendable (WebSocketMessage) -> [WebSocketMessage]

    init(responder: @escaping @Sendable (WebSocketMessage) -> [WebSocketMessage]) { self.responder = responder }

    /// What the client sent, in order.
    public var sent: [WebSocketMessage] { state.withLock { $0.sent } }

    /// Whether the socket has closed (by either side).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Records `message` and delivers the responder's replies (none when half-open).
    /// - Throws: `FakeSocketFailure` after a close or drop.
    public func send(_ message: WebSocketMessage) async throws {
        let halfOpen = try state.withLock { state throws(FakeSocketFailure) -> Bool in
            guard !state.closed else { throw FakeSocketFailure(description: "the fake socket is closed") }
            state.sent.append(message)
            return state.halfOpen
        }
        if !halfOpen { responder(message).forEach(deliver) }
    }

    /// The next delivered message, or `nil` once closed.
    public func receive() async -> WebSocketMessage? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> WebSocketMessage?? in
                if let message = state.inbound.take() { return .some(message) }
                if state.closed { return .some(nil) }
                state.inbound.park(continuation)
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Closes the socket.
    public func close() { drop() }

    /// Delivers `message` to the client (nothing once closed or half-open).
    public func deliver(_ message: WebSocketMessage) {
        let reader = state.withLock { state in state.closed || state.halfOpen ? nil : state.inbound.offer(message) }
        reader?.resume(returning: message)
    }

    /// The connection breaks: the client's `receive` returns `nil`, sends fail.
    public func drop() {
        let reader = state.withLock { state in
            state.closed = true
            return state.inbound.unpark()
        }
        reader?.resume(returning: nil)
    }

    /// The peer vanishes without a close (half-open TCP): sends still succeed, nothing comes back.
    public func goHalfOpen() { state.withLock { $0.halfOpen = true } }
}

/// A fault the fake transport injected.
public struct FakeSocketFailure: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
}
