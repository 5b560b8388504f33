import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import CourierHTTP

/// Routes declared `.onLoop` run their middleware and handler on the engine's loop thread, with
/// the same answers as a handler task; one that suspends continues on the loop when woken, and
/// the loop serves other connections meanwhile.
@Suite(.timeLimit(.minutes(2)))
struct RouteExecutionTests {
    /// The name of the thread a synchronous part of a handler runs on, as the kernel has it (at
    /// most 15 bytes).
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .newlines)
    }

    /// What the handlers saw, and the points where a suspended handler waits.
    final class Probe: Sendable {
        let threads = Mutex<[String: String]>([:])
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let (finished, finishedContinuation) = AsyncStream<Void>.makeStream()

        func record(_ key: String) {
            let name = RouteExecutionTests.threadName()
            threads.withLock { $0[key] = name }
        }

        func thread(_ key: String) -> String? { threads.withLock { $0[key] } }
    }

    /// Far more than a socket's buffers take at once: lws must keep the rest and send it later.
    static let bigBytes = 8 << 20

    let probe = Probe()
    let server: HTTPServer

    init() throws {
        let probe = probe
        var router = Router()
        router.add(.get, "/loop", execution: .onLoop) { _ in
            probe.record("loop")
            return .text("on the loop")
        }
        router.add(.get, "/task") { _ in
            probe.record("task")
            return .text("as a task")
        }
        router.add(.get, "/refused", execution: .onLoop) { _ in throw HTTPError(.forbidden, "not here") }
        router.add(.get, "/big", execution: .onLoop) { _ in
            HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: Self.bigBytes))
        }
        router.add(.post, "/echo", execution: .onLoop) { request in HTTPResponse(status: 200, body: request.body) }
        router.add(.get, "/waits", execution: .onLoop) { _, _ in
            probe.record("before")
            probe.enteredContinuation.yield()
            var release = probe.release.makeAsyncIterator()
            _ = await release.next()
            probe.record("after")
            probe.finishedContinuation.yield()
            return .text("woken")
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    private func get(_ path: String, body: String? = nil) async throws -> (status: Int, head: String, body: [UInt8]) {
        let port = server.port
        return try await offPool {
            let socket = try RawSocket(port: port)
            if let body {
                try socket.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            } else {
                try socket.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            guard let response = socket.readResponse() else { throw RawSocket.Failure(description: "no answer") }
            return response
        }
    }

    @Test func anOnLoopRouteRunsOnTheLoopThreadAndATaskRouteDoesNot() async throws {
        let loop = try await get("/loop")
        #expect(loop.status == 200)
        #expect(loop.body == Array("on the loop".utf8))
        let task = try await get("/task")
        #expect(task.status == 200)
        #expect(probe.thread("loop") == "http-loop")
        #expect(probe.thread("task")?.hasPrefix("http-handler-") == true)
        await server.shutdown(deadline: .zero)
    }

    @Test func answersWrittenInTheCallbackKeepTheConnectionPipelinedRequestsAndLargeBodies() async throws {
        let port = server.port
        let (first, second, pipelined, big, afterBig) = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = socket.readResponse()
            try socket.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = socket.readResponse()
            let pipelining = try RawSocket(port: port)
            try pipelining.send(
                "GET /loop HTTP/1.1\r\nHost: x\r\n\r\nGET /task HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /loop HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let pipelined = String(decoding: pipelining.readUntilClosed().bytes, as: UTF8.self)
            let slow = try RawSocket(port: port, receiveBufferBytes: 4096)
            try slow.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            let big = slow.readResponse()
            // The same connection after an answer lws had to hold back: it is kept, and read.
            try slow.send("GET /loop HTTP/1.1\r\nHost: x\r\n\r\n")
            return (first, second, pipelined, big, slow.readResponse())
        }
        #expect(first?.status == 200)
        #expect(second?.body == Array("on the loop".utf8))
        #expect(pipelined.components(separatedBy: "HTTP/1.1 200").count == 4)
        #expect(pipelined.hasSuffix("on the loop"))
        #expect(pipelined.contains("as a task"))
        #expect(big?.body.count == Self.bigBytes)
        #expect(big?.body.allSatisfy { $0 == 0x61 } == true)
        #expect(afterBig?.body == Array("on the loop".utf8))
        await server.shutdown(deadline: .zero)
    }

    /// Requests pipelined on one connection to routes on the loop are answered one after the
    /// other without waiting for the loop's 100 ms ticker: lws reads the next one from what it
    /// buffered only in a pass it runs after a descriptor event, and servicing a connection as
    /// writable before the loop waits is none. Fifty requests took about five seconds, a tick
    /// each; the bound is far below that and far above the milliseconds they take.
    @Test func pipelinedRequestsToTheLoopAreAnsweredWithoutWaitingForTheTicker() async throws {
        let port = server.port
        let count = 50
        let (answers, elapsed) = try await offPool {
            let socket = try RawSocket(port: port, timeoutSeconds: 30)
            let requests = (0..<count).map { index in
                "GET /loop HTTP/1.1\r\nHost: x\r\n\(index == count - 1 ? "Connection: close\r\n" : "")\r\n"
            }
            let started = ContinuousClock.now
            try socket.send(requests.joined())
            let text = String(decoding: socket.readUntilClosed().bytes, as: UTF8.self)
            return (text.components(separatedBy: "HTTP/1.1 200").count - 1, ContinuousClock.now - started)
        }
        #expect(answers == count)
        #expect(elapsed < .seconds(2), "\(count) pipelined requests took \(elapsed)")
        await server.shutdown(deadline: .zero)
    }

    /// Pipelined answers come back in the order of the requests, whichever way each route runs:
    /// a request to a route on the loop behind one whose task is still running waits for it.
    @Test func pipelinedAnswersKeepTheRequestsOrderAcrossTaskAndLoopRoutes() async throws {
        let port = server.port
        let text = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(
                "GET /task HTTP/1.1\r\nHost: x\r\n\r\nGET /loop HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /task HTTP/1.1\r\nHost: x\r\n\r\nGET /loop HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return String(decoding: socket.readUntilClosed().bytes, as: UTF8.self)
        }
        let bodies = ["as a task", "on the loop"]
        let order = text.components(separatedBy: "\r\n\r\n").compactMap { part in
            bodies.first { part.hasPrefix($0) }
        }
        #expect(order == ["as a task", "on the loop", "as a task", "on the loop"], "\(text)")
        await server.shutdown(deadline: .zero)
    }

    @Test func aChunkedBodyWholeInItsLastPieceIsAnsweredOnTheLoop() async throws {
        let port = server.port
        let answer = try await offPool { () -> (status: Int, head: String, body: [UInt8])? in
            let socket = try RawSocket(port: port)
            try socket.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            return socket.readResponse()
        }
        #expect(answer?.status == 200)
        #expect(answer?.body == Array("hello".utf8))
        await server.shutdown(deadline: .zero)
    }

    @Test func theMiddlewareChainAndErrorAnswersAreTheSameOnTheLoop() async throws {
        let refused = try await get("/refused")
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("not here"))
        #expect(refused.head.lowercased().contains("x-request-id:"))
        #expect(refused.head.lowercased().contains("x-content-type-options: nosniff"))
        let echoed = try await get("/echo", body: "a body read on the loop")
        #expect(echoed.status == 200)
        #expect(echoed.body == Array("a body read on the loop".utf8))
        #expect(server.metrics.prometheusText().contains("route=\"/refused\""))
        await server.shutdown(deadline: .zero)
    }

    /// Sends `GET /waits` and returns its socket once the handler is suspended.
    private func startWaitingRequest() async throws -> RawSocket {
        let port = server.port
        let waiting = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send("GET /waits HTTP/1.1\r\nHost: x\r\n\r\n")
            return socket
        }
        var entered = probe.entered.makeAsyncIterator()
        _ = await entered.next()
        return waiting
    }

    @Test func aHandlerThatSuspendsLeavesTheLoopServingAndContinuesOnIt() async throws {
        let waiting = try await startWaitingRequest()
        // The first handler is suspended; the loop answers another connection meanwhile.
        let other = try await get("/loop")
        #expect(other.status == 200)
        probe.releaseContinuation.yield()
        let answer = try await offPool { waiting.readResponse() }
        #expect(answer?.status == 200)
        #expect(answer?.body == Array("woken".utf8))
        #expect(probe.thread("before") == "http-loop")
        #expect(probe.thread("after") == "http-loop")
        await server.shutdown(deadline: .zero)
    }

    @Test func aHandlerSuspendedWhenTheServerStopsFinishesOffTheLoop() async throws {
        let waiting = try await startWaitingRequest()
        await server.shutdown(deadline: .milliseconds(200))
        probe.releaseContinuation.yield()
        var finished = probe.finished.makeAsyncIterator()
        _ = await finished.next()
        #expect(probe.thread("after") != "http-loop")
        // The connection closed with the server; its answer was dropped.
        #expect(try await offPool { waiting.readResponse() } == nil)
    }
}
