import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// Adds a header to every answer and counts what it sees: the application's middleware.
struct StampMiddleware: HTTPMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        if request.header("x-refuse") != nil { throw HTTPError(.forbidden, "refused by middleware") }
        var response = try await next(request, context)
        response.headers.append(("X-Stamp", context.route ?? "none"))
        return response
    }
}

/// The in-process client runs the engine's pipeline (routing, errors, CORS, request ids, body
/// limits, gzip, the application's middleware) with no socket.
@Suite(.timeLimit(.minutes(1)))
struct RouterTestClientTests {
    let metrics = HTTPMetrics()
    let client: RouterTestClient

    struct Failure: Error {}

    init() {
        var router = Router()
        router.add("GET", "/items/{id}") { request in .json(["id": .string(request.pathParameters["id"] ?? "")]) }
        router.add("POST", "/echo", crossOrigin: .anyOrigin) { request in
            HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
        }
        router.add("GET", "/query") { request in .text(request.query["q"] ?? "") }
        router.add("GET", "/teapot") { _ in throw HTTPError(HTTPError.Code("teapot", status: 418), "short and stout") }
        router.add("GET", "/broken") { _ in throw Failure() }
        router.add("GET", "/stream") { _, _ in
            HTTPResponse(status: 200, bodyStream: [[1, 2], [3], [4, 5, 6]].async)
        }
        var http = HTTPServerConfiguration()
        http.maximumBodyBytes = 32
        http.maximumDecompressedBodyBytes = 64
        client = RouterTestClient(
            router: router, configuration: http, metrics: metrics, middleware: [StampMiddleware()])
    }

    @Test func routesWithPathParametersAndQueries() async throws {
        let item = try await client.execute("GET", "/items/42")
        #expect(item.status == 200)
        #expect(item.jsonBody?["id"]?.stringValue == "42")
        #expect(item.header("x-stamp") == "/items/{id}")
        #expect(try await client.execute("GET", "/query?q=a%20b").text == "a b")
        #expect(metrics.count(method: "GET", route: "/items/{id}", status: 200) == 1)
    }

    @Test func errorsAreAnsweredAsOnTheEngine() async throws {
        let missing = try await client.execute("GET", "/nowhere")
        #expect(missing.status == 404)
        #expect(missing.jsonBody?["error"]?["code"]?.stringValue == "not_found")
        let wrongMethod = try await client.execute("DELETE", "/echo")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "POST")
        let teapot = try await client.execute("GET", "/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.jsonBody?["error"]?["message"]?.stringValue == "short and stout")
        let broken = try await client.execute("GET", "/broken")
        #expect(broken.status == 500)
        #expect(broken.jsonBody?["error"]?["code"]?.stringValue == "internal_error")
        let refused = try await client.execute("GET", "/items/1", headers: ["X-Refuse": "1"])
        #expect(refused.status == 403)
        #expect(refused.header("x-content-type-options") == "nosniff")
    }

    @Test func requestIDsAreKeptOrMade() async throws {
        let given = try await client.execute("GET", "/items/1", headers: ["X-Request-Id": "abc-123"])
        #expect(given.header("x-request-id") == "abc-123")
        let made = try await client.execute("GET", "/items/1", headers: ["X-Request-Id": "not ok\u{7}"])
        let id = try #require(made.header("x-request-id"))
        #expect(id != "not ok\u{7}" && !id.isEmpty)
    }

    @Test func corsFollowsTheRoutesPolicy() async throws {
        let preflight = try await client.execute(
            "OPTIONS", "/echo", headers: ["Origin": "https://web.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204)
        #expect(preflight.header("access-control-allow-origin") == "*")
        let refusedPreflight = try await client.execute(
            "OPTIONS", "/items/1", headers: ["Origin": "https://web.example", "Access-Control-Request-Method": "GET"])
        #expect(refusedPreflight.status == 403)
        let echo = try await client.execute("POST", "/echo", headers: ["Origin": "https://web.example"], body: [7])
        #expect(echo.header("access-control-allow-origin") == "*")
        #expect(
            try await client.execute("GET", "/items/1", headers: ["Origin": "https://web.example"])
                .header("access-control-allow-origin") == nil)
    }

    @Test func bodiesAreLimitedAndDecompressed() async throws {
        #expect(try await client.execute("POST", "/echo", body: Array(repeating: 1, count: 33)).status == 413)
        let plain = Array(repeating: UInt8(ascii: "a"), count: 40)
        let zipped = try Gzip.compress(plain)
        let echoed = try await client.execute("POST", "/echo", headers: ["Content-Encoding": "gzip"], body: zipped)
        #expect(echoed.status == 200)
        #expect(echoed.body == plain)
        let bomb = try Gzip.compress(Array(repeating: 0, count: 1_000))
        #expect(
            try await client.execute("POST", "/echo", headers: ["Content-Encoding": "gzip"], body: bomb).status == 413)
    }

    @Test func streamedBodiesAreCollectedAndHeadAnswersHaveNone() async throws {
        #expect(try await client.execute("GET", "/stream").body == [1, 2, 3, 4, 5, 6])
        var chunks: [[UInt8]] = []
        for try await chunk in await client.stream("GET", "/stream").chunks() { chunks.append(chunk) }
        #expect(chunks == [[1, 2], [3], [4, 5, 6]])
        let head = try await client.execute("HEAD", "/items/9")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }
}

extension Array where Element: Sendable {
    /// The elements as an `AsyncSequence`.
    fileprivate var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
