import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// Records the order in which middleware run.
final class Trail: Sendable {
    private let steps = Mutex<[String]>([])
    func add(_ step: String) { steps.withLock { $0.append(step) } }
    var all: [String] { steps.withLock { $0 } }
}

struct TrailMiddleware: HTTPMiddleware {
    let name: String
    let trail: Trail
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        trail.add("\(name) in")
        var response = try await next(request, context)
        trail.add("\(name) out")
        response.headers.append(("X-Seen-By", name))
        return response
    }
}

struct RefuseDeletes: HTTPMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        if request.method == "DELETE" { throw HTTPError(HTTPError.Code("read_only", status: 409), "read only") }
        return try await next(request, context)
    }
}

/// An answer that comes later, from another thread: what a handler awaiting a commit sees.
final class LateAnswer: Sendable {
    private let continuation = Mutex<CheckedContinuation<String, Never>?>(nil)
    let waiting = DispatchSemaphore(value: 0)

    func wait() async -> String {
        await withCheckedContinuation { continuation in
            self.continuation.withLock { $0 = continuation }
            waiting.signal()
        }
    }

    func answer(_ text: String) { continuation.withLock { $0 }?.resume(returning: text) }
}

/// A task a handler started and did not wait for.
final class LeftRunning: Sendable {
    let late = LateAnswer()
    let done = DispatchSemaphore(value: 0)
}

/// The middleware chain, called in process (the engine's pipeline with no socket), except where
/// the engine's handler threads are the point.
@Suite(.timeLimit(.minutes(2)))
struct MiddlewareTests {
    let trail = Trail()
    let late = LateAnswer()
    let leftRunning = LeftRunning()
    let clock = ManualClock()
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(20))
    let routes: RouterTestClient

    init() throws {
        var router = Router()
        let trail = trail
        router.add("GET", "/items/{id}") { request, context in
            trail.add("handler \(request.pathParameters["id"] ?? "") \(context.route ?? "-")")
            return .json(["id": .string(request.pathParameters["id"] ?? "")])
        }
        router.add("DELETE", "/items/{id}") { _ in .json(["deleted": true]) }
        let late = late
        router.add("GET", "/late") { _, _ in .text(await late.wait()) }
        router.add("GET", "/admin/stats") { _ in .json(["secret": 42]) }
        let leftRunning = leftRunning
        router.add("POST", "/later") { _, _ in
            // Work the handler leaves running after it has answered.
            Task {
                _ = await leftRunning.late.wait()
                leftRunning.done.signal()
            }
            return HTTPResponse(status: 202)
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.extraHeaderNames = ["X-Client"]
        server = HTTPServer(
            configuration: configuration, router: router,
            middleware: [
                TrailMiddleware(name: "outer", trail: trail), TrailMiddleware(name: "inner", trail: trail),
                RefuseDeletes(),
                BearerAuthMiddleware(tokens: ["admin-token-0123456789"]) { _, context in
                    context.route?.hasPrefix("/admin") == true
                },
                RateLimitMiddleware(RateLimiter(perSecond: 1, burst: 3, clock: clock)) { request, _ in
                    request.header("x-client")
                },
            ])
        routes = RouterTestClient(server: server)
    }

    @Test func middlewareRunInOrderAroundTheHandler() async throws {
        let response = try await routes.execute("GET", "/items/7")
        #expect(response.jsonBody == ["id": "7"])
        #expect(trail.all == ["outer in", "inner in", "handler 7 /items/{id}", "inner out", "outer out"])
    }

    @Test func aMiddlewareCanAnswerWithAnError() async throws {
        let refused = try await routes.execute("DELETE", "/items/7")
        #expect(refused.status == 409)
        #expect(refused.jsonBody?["error"]?["code"] == "read_only")
        // The error passed through the application's middleware (which did not catch it) and
        // became an answer before the server's own log and metrics saw it.
        #expect(trail.all == ["outer in", "inner in"])
        #expect(server.metrics.count(method: "DELETE", route: "/items/{id}", status: 409) == 1)
    }

    @Test func anAsyncHandlerAwaitsWithoutHoldingASharedThread() async throws {
        try server.start()
        defer { inBackground { [server] in server.stop() } }
        let pending = Task { try await client.send("GET", server.baseURL + "/late") }
        #expect(await waitOffPool(late.waiting))
        // While the handler awaits, other requests are answered.
        #expect(try await client.send("GET", server.baseURL + "/items/1").status == 200)
        late.answer("done later")
        let response = try await pending.value
        #expect(String(decoding: response.body, as: UTF8.self) == "done later")
    }

    @Test func aTaskAHandlerLeavesRunningFinishesAfterTheAnswer() async throws {
        #expect(try await routes.execute("POST", "/later").status == 202)
        #expect(await waitOffPool(leftRunning.late.waiting))
        leftRunning.late.answer("go on")
        #expect(await waitOffPool(leftRunning.done))
    }

    @Test func bearerAuthGuardsOnlyTheRoutesItIsGivenTo() async throws {
        #expect(try await routes.execute("GET", "/admin/stats").status == 403)
        let wrong = try await routes.execute("GET", "/admin/stats", headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 403)
        let right = try await routes.execute(
            "GET", "/admin/stats", headers: ["Authorization": "Bearer admin-token-0123456789"])
        #expect(right.jsonBody == ["secret": 42])
        #expect(try await routes.execute("GET", "/items/2").status == 200)
    }

    @Test func rateLimitsByTheKeyTheyAreGiven() async throws {
        for _ in 0..<3 {
            #expect(try await routes.execute("GET", "/items/1", headers: ["X-Client": "a"]).status == 200)
        }
        let limited = try await routes.execute("GET", "/items/1", headers: ["X-Client": "a"])
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") == "1")
        // Another key has its own bucket; no key, no limit.
        #expect(try await routes.execute("GET", "/items/1", headers: ["X-Client": "b"]).status == 200)
        #expect(try await routes.execute("GET", "/items/1").status == 200)
        clock.advance(by: .seconds(1))
        #expect(try await routes.execute("GET", "/items/1", headers: ["X-Client": "a"]).status == 200)
    }

    @Test func everyAnswerCarriesARequestId() async throws {
        let given = try await routes.execute("GET", "/items/1", headers: ["X-Request-Id": "abc-123.x_y"])
        #expect(given.header("x-request-id") == "abc-123.x_y")
        let forged = try await routes.execute("GET", "/items/1", headers: ["X-Request-Id": "a b"])
        #expect(forged.header("x-request-id")?.count == 36)
        let missing = try await routes.execute("GET", "/nope")
        #expect(missing.status == 404)
        #expect(missing.header("x-request-id")?.count == 36)
    }
}
