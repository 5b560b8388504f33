import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// Routes served by a message handler instead of a task: each message in order on the engine's
/// loop, those sent before the upgrade was accepted included, and the socket open until a side
/// closes it.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketMessageHandlerTests {
    /// Holds the upgrade's acceptance until the test opens it, so that the client's first
    /// messages arrive before the handler is set.
    let gate: AsyncStream<Void>
    let opener: AsyncStream<Void>.Continuation

    init() {
        (gate, opener) = AsyncStream<Void>.makeStream()
    }

    func start() throws -> HTTPServer {
        var router = Router()
        let gate = gate
        router.webSocket(
            "/echo",
            shouldUpgrade: { _, _ in
                for await _ in gate { break }
            }
        ) { socket, message in
            guard case .text(let text) = message else { return }
            if text == "bye" {
                socket.outbound.close(.normalClosure, reason: "asked")
                return
            }
            try? socket.outbound.sendNow(.text("\(text) on \(RouteExecutionTests.threadName())"))
        }
        return try HTTPServer.started(router)
    }

    @Test func messagesAreHandledInOrderOnTheLoopAndTheSocketStaysOpenUntilClosed() async throws {
        let server = try start()
        let client = try WebSocketClient()
        let socket = try await client.connect(to: "ws://127.0.0.1:\(server.port)/echo")
        // Sent at once, while the upgrade is still being accepted: they wait in the buffer and
        // are handed over first, in order.
        for index in 0..<20 { try await socket.outbound.send(text: "early \(index)") }
        opener.yield()
        var replies = socket.inbound.makeAsyncIterator()
        var early: [String] = []
        for _ in 0..<20 {
            guard case .text(let text)? = await replies.next() else { break }
            early.append(text)
        }
        #expect(early.map { $0.components(separatedBy: " on ")[0] } == (0..<20).map { "early \($0)" })
        // Once the hand-over of the buffer has finished (probes answered from the loop show it),
        // each message is handled as it arrives, on the loop thread.
        var onLoop = false
        while !onLoop {
            try await socket.outbound.send(text: "probe")
            guard case .text(let reply)? = await replies.next() else { break }
            onLoop = reply == "probe on http-loop"
        }
        #expect(onLoop)
        for index in 0..<5 {
            try await socket.outbound.send(text: "late \(index)")
            #expect(await replies.next() == .text("late \(index) on http-loop"))
        }
        try await socket.outbound.send(text: "bye")
        let close = await socket.closed()
        #expect(close.code == .normalClosure)
        #expect(close.reason == "asked")
        await runOffPool {
            client.shutdown()
            server.stop(deadline: .zero)
        }
    }

    /// Handlers made per socket see the upgrade request (a path parameter here) and are told
    /// when the socket closes, with the peer's close.
    @Test func handlersMadePerSocketSeeTheRequestAndAreToldOfTheClose() async throws {
        let (closes, closed) = AsyncStream<WebSocketClose>.makeStream()
        var router = Router()
        router.webSocket("/rooms/{room}") { _, request, _ in
            let room = request.pathParameters["room"] ?? "?"
            return WebSocketHandlers(
                onMessage: { socket, message in
                    guard case .text(let text) = message else { return }
                    try? socket.outbound.sendNow(.text("\(room): \(text)"))
                },
                onClose: { _, close in
                    closed.yield(close)
                    closed.finish()
                })
        }
        let server = try HTTPServer.started(router)
        let client = try WebSocketClient()
        let socket = try await client.connect(to: "ws://127.0.0.1:\(server.port)/rooms/lobby")
        try await socket.outbound.send(text: "hi")
        var replies = socket.inbound.makeAsyncIterator()
        #expect(await replies.next() == .text("lobby: hi"))
        socket.outbound.close(.normalClosure, reason: "done")
        var told = closes.makeAsyncIterator()
        let close = await told.next()
        #expect(close?.code == .normalClosure)
        #expect(close?.reason == "done")
        await runOffPool {
            client.shutdown()
            server.stop(deadline: .zero)
        }
    }
}
