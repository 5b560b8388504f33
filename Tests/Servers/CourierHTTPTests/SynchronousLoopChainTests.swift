import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import CourierHTTP

/// An `.onLoop` route with a synchronous handler, and only middleware that never waits around it,
/// is answered in the loop's callback by plain calls: no task, no executor hop. The answers are
/// the same as the chain's as a task; a route with a middleware that can wait runs as a task on
/// the loop, as before.
@Suite(.timeLimit(.minutes(2)))
struct SynchronousLoopChainTests {
    /// Whether each handler ran inside a task, and on which thread.
    final class Probe: Sendable {
        private let seen = Mutex<[String: (inTask: Bool, thread: String)]>([:])

        func record(_ key: String) {
            let inTask = withUnsafeCurrentTask { $0 != nil }
            let thread = RouteExecutionTests.threadName()
            seen.withLock { $0[key] = (inTask, thread) }
        }

        func inTask(_ key: String) -> Bool? { seen.withLock { $0[key]?.inTask } }
        func thread(_ key: String) -> String? { seen.withLock { $0[key]?.thread } }
    }

    /// A server-wide middleware that awaits: on the routes it applies to, a loop route must run
    /// as a task. It leaves out the routes under `/scoped-out`, and marks every answer it shapes.
    struct AwaitingMiddleware: RouteScopedMiddleware {
        func applies(toRoute pattern: String, crossOrigin: CrossOriginPolicy) -> Bool {
            !pattern.hasPrefix("/scoped-out")
        }

        func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
            -> HTTPResponse
        {
            await Task.yield()
            var response = try await next(request, context)
            response.headers.append(("X-Awaited", "yes"))
            return response
        }
    }

    /// A synchronous middleware of the application's own, which marks what it shapes.
    struct MarkingMiddleware: SynchronousHTTPMiddleware {
        func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws
            -> HTTPResponse
        {
            Self.marked(try await next(request, context))
        }

        func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
            -> HTTPResponse
        {
            Self.marked(try next(request, context))
        }

        static func marked(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            response.headers.append(("X-Marked", "yes"))
            return response
        }
    }

    struct Unexpected: Error {}

    static let maximumBodyBytes = 4_096
    let probe = Probe()
    let server: HTTPServer

    init() throws {
        server = try Self.server(probe: probe, middleware: [MarkingMiddleware()])
    }

    static func server(probe: Probe, middleware: [any HTTPMiddleware]) throws -> HTTPServer {
        var router = Router()
        router.add(.get, "/sync", execution: .onLoop) { _ in
            probe.record("sync")
            return .text("plain calls")
        }
        router.add(.get, "/async", execution: .onLoop) { _, _ in
            probe.record("async")
            return .text("a task on the loop")
        }
        router.add(.get, "/scoped-out/sync", execution: .onLoop) { _ in
            probe.record("scoped-out")
            return .text("left out")
        }
        router.add(.get, "/public", crossOrigin: .anyOrigin, execution: .onLoop) { _ in .text("any origin") }
        router.add(
            .get, "/memory/{key}",
            fromMemory: { request in
                switch request.pathParameters["key"] {
                case "hit":
                    probe.record("memory")
                    return .text("from memory")
                case "refused": throw HTTPError(.notFound, "no such key")
                default: return nil
                }
            }
        ) { _ in
            probe.record("memory-handler")
            return .text("from the handler")
        }
        router.add(.get, "/fails", execution: .onLoop) { _ in throw Unexpected() }
        router.add(.post, "/echo", execution: .onLoop) { request in HTTPResponse(status: 200, body: request.body) }
        router.group(
            "/admin", middleware: [TopLevelErrorFieldsMiddleware(), AdminAuthMiddleware(token: "admin-secret")]
        ) { admin in
            admin.add(.get, "/stats", execution: .onLoop) { _ in
                probe.record("admin")
                return .json(["requests": 1])
            }
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.maximumBodyBytes = Self.maximumBodyBytes
        let server = HTTPServer(configuration: configuration, router: router, middleware: middleware)
        try server.start()
        return server
    }

    private func send(_ server: HTTPServer, _ request: String) async throws -> (
        status: Int, head: String, body: [UInt8]
    ) {
        let port = server.port
        return try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(request)
            guard let response = socket.readResponse() else { throw RawSocket.Failure(description: "no answer") }
            return response
        }
    }

    private func get(_ path: String, headers: String = "", on server: HTTPServer? = nil) async throws
        -> (status: Int, head: String, body: [UInt8])
    {
        try await send(server ?? self.server, "GET \(path) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
    }

    @Test func aSynchronousHandlerOnTheLoopRunsWithNoTaskAndAnAsynchronousOneInATask() async throws {
        let sync = try await get("/sync")
        #expect(sync.status == 200)
        #expect(sync.body == Array("plain calls".utf8))
        let async = try await get("/async")
        #expect(async.body == Array("a task on the loop".utf8))
        #expect(probe.inTask("sync") == false)
        #expect(probe.thread("sync") == "http-loop")
        #expect(probe.inTask("async") == true)
        #expect(probe.thread("async") == "http-loop")
        await server.shutdown(deadline: .zero)
    }

    @Test func theSynchronousChainAnswersAsTheChainDoes() async throws {
        let sync = try await get("/sync", headers: "X-Request-Id: given-id-1\r\n")
        let head = sync.head.lowercased()
        #expect(head.contains("x-request-id: given-id-1"))
        #expect(head.contains("x-content-type-options: nosniff"))
        #expect(head.contains("x-marked: yes"))
        let crossOrigin = try await get("/public", headers: "Origin: https://example.com\r\n")
        #expect(crossOrigin.head.lowercased().contains("access-control-allow-origin: *"))
        let failed = try await get("/fails")
        #expect(failed.status == 500)
        #expect(String(decoding: failed.body, as: UTF8.self).contains("internal_error"))
        #expect(failed.head.lowercased().contains("x-request-id:"))
        let refused = try await get("/admin/stats")
        #expect(refused.status == 403)
        let refusal = try JSONSerialization.jsonObject(with: Data(refused.body)) as? [String: Any]
        #expect(refusal?["code"] as? String == "forbidden", "the group's TopLevelErrorFields ran")
        let admitted = try await get("/admin/stats", headers: "Authorization: Bearer admin-secret\r\n")
        #expect(admitted.status == 200)
        #expect(probe.inTask("admin") == false)
        let body = "a body sent gzipped"
        let gzipped = try Gzip.compress(Array(body.utf8))
        let port = server.port
        let echoed = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(
                Array(
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\n\r\n"
                        .utf8) + gzipped)
            return socket.readResponse()
        }
        #expect(echoed?.body == Array(body.utf8))
        #expect(server.metrics.count(method: "GET", route: "/sync", status: 200) == 1)
        #expect(server.metrics.count(method: "GET", route: "/fails", status: 500) == 1)
        #expect(server.metrics.count(method: "GET", route: "/admin/stats", status: 403) == 1)
        await server.shutdown(deadline: .zero)
    }

    @Test func aMiddlewareThatCanWaitKeepsALoopRouteATaskUnlessItLeavesTheRouteOut() async throws {
        let server = try Self.server(probe: probe, middleware: [AwaitingMiddleware()])
        let sync = try await get("/sync", on: server)
        #expect(sync.head.lowercased().contains("x-awaited: yes"))
        #expect(probe.inTask("sync") == true)
        let scopedOut = try await get("/scoped-out/sync", on: server)
        #expect(scopedOut.body == Array("left out".utf8))
        #expect(!scopedOut.head.lowercased().contains("x-awaited"))
        #expect(probe.inTask("scoped-out") == false)
        await server.shutdown(deadline: .zero)
        await self.server.shutdown(deadline: .zero)
    }

    @Test func headAndOversizedBodiesAreAnsweredAsOnTheTaskPath() async throws {
        let port = server.port
        let head = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send("HEAD /sync HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return String(decoding: socket.readUntilClosed().bytes, as: UTF8.self)
        }
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.hasSuffix("\r\n\r\n"), "a HEAD answer has no body: \(head)")
        #expect(probe.inTask("sync") == false)
        let oversized = try await send(
            server,
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(Self.maximumBodyBytes + 1)\r\n\r\n"
                + String(repeating: "x", count: Self.maximumBodyBytes + 1))
        #expect(oversized.status == 413)
        #expect(oversized.head.lowercased().contains("x-request-id:"))
        await server.shutdown(deadline: .zero)
    }

    /// The in-process pipeline (`RouterTestClient`) runs a loop route's chain as the engine does.
    @Test func theInProcessPipelineRunsTheSameSynchronousChain() async throws {
        let routes = server.responder.router.routes
        #expect(routes.first { $0.pattern == "/sync" }?.loopPipeline != nil)
        #expect(routes.first { $0.pattern == "/async" }?.loopPipeline == nil, "an async handler runs as a task")
        #expect(routes.first { $0.pattern == "/echo" }?.loopPipeline != nil)
        let response = await server.respondInProcess(to: HTTPRequest(method: .get, path: "/sync"))
        #expect(response.status.code == 200)
        #expect(response.header("x-marked") == "yes")
        #expect(response.header("x-request-id") != nil)
        #expect(server.metrics.count(method: "GET", route: "/sync", status: 200) == 1)
        await server.shutdown(deadline: .zero)
    }

    /// A route with an answer in memory is answered on the loop, with no task, inside the chain;
    /// without one its handler runs as a task; what the memory answer throws is answered.
    @Test func anAnswerInMemoryIsGivenOnTheLoopAndAMissRunsTheHandlerAsATask() async throws {
        let hit = try await get("/memory/hit")
        #expect(hit.body == Array("from memory".utf8))
        #expect(hit.head.lowercased().contains("x-marked: yes"), "the middleware ran around it")
        #expect(probe.thread("memory") == "http-loop")
        #expect(probe.inTask("memory") == false)
        #expect(probe.inTask("memory-handler") == nil, "the handler did not run")
        let miss = try await get("/memory/miss")
        #expect(miss.body == Array("from the handler".utf8))
        #expect(probe.thread("memory-handler")?.hasPrefix("http-handler-") == true)
        #expect(probe.inTask("memory-handler") == true)
        let refused = try await get("/memory/refused")
        #expect(refused.status == 404)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("no such key"))
        #expect(server.metrics.count(method: "GET", route: "/memory/{key}") == 3)
        let inProcess = await server.respondInProcess(to: HTTPRequest(method: .get, path: "/memory/miss"))
        #expect(inProcess.body == Array("from the handler".utf8))
        let inProcessHit = await server.respondInProcess(to: HTTPRequest(method: .get, path: "/memory/hit"))
        #expect(inProcessHit.body == Array("from memory".utf8))
        await server.shutdown(deadline: .zero)
    }
}
