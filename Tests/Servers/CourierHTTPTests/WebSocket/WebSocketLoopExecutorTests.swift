import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Testing

/// A server handler that reads its socket on `WebSocket.loopExecutor` handles each message on the
/// engine's loop thread; before it switches, it runs on a handler thread as any handler does.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketLoopExecutorTests {
    @Test func aReaderOnTheLoopExecutorHandlesMessagesOnTheLoopThread() async throws {
        var router = Router()
        router.webSocket("/where") { socket, _, _ in
            try await socket.outbound.send(text: "setup on \(RouteExecutionTests.threadName())")
            try await withTaskExecutorPreference(socket.loopExecutor) {
                for await message in socket.inbound {
                    guard case .text(let text) = message else { continue }
                    try socket.outbound.sendNow(.text("\(text) on \(RouteExecutionTests.threadName())"))
                }
            }
        }
        let server = try HTTPServer.started(router)
        let client = try WebSocketClient()
        let socket = try await client.connect(to: "ws://127.0.0.1:\(server.port)/where")
        // The client's own socket has no loop to offer.
        #expect(socket.loopExecutor == nil)
        var replies = socket.inbound.makeAsyncIterator()
        let setup = await replies.next()
        guard case .text(let setupText)? = setup else {
            Issue.record("no setup reply: \(String(describing: setup))")
            return
        }
        #expect(setupText.hasPrefix("setup on http-handler-"))
        for index in 0..<3 {
            try await socket.outbound.send(text: "m\(index)")
            #expect(await replies.next() == .text("m\(index) on http-loop"))
        }
        socket.outbound.close()
        await runOffPool {
            client.shutdown()
            server.stop(deadline: .zero)
        }
    }
}
