import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The server under hostile or careless clients and handlers.
@Suite(.timeLimit(.minutes(2)))
struct HTTPHardeningTests {
    let server: HTTPServer
    let client = HTTPClient(timeout: .seconds(20))
    let echoCalls = CallCounter()
    let gate = Gate()

    init() throws {
        var router = Router()
        let echoCalls = self.echoCalls
        router.add("POST", "/echo") { request in
            echoCalls.increment()
            return HTTPResponse(status: 200, body: request.body)
        }
        router.add("POST", "/public", crossOrigin: .anyOrigin) { _ in .json(["ok": true]) }
        router.add("GET", "/inject") { request in
            HTTPResponse(status: 200, headers: [("X-Name", request.query["v"] ?? "")], body: Array("hi".utf8))
        }
        router.add("GET", "/split") { _ in
            HTTPResponse(status: 200, headers: [("X-Name", "a\r\nSet-Cookie: admin=1")], body: Array("hi".utf8))
        }
        router.add("GET", "/fails") { _ in throw DatabaseError(resultCode: 10, message: "disk I/O error at /var/secret")
        }
        router.add("GET", "/teapot") { _ in throw HTTPError(HTTPError.Code("teapot", status: 418), "short and stout") }
        gate.addSlowRoute(to: &router)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.requestTimeoutMilliseconds = 500
        let metrics = HTTPMetrics()
        router.addMetrics(metrics, token: "metrics-token-0123456789")
        server = HTTPServer(configuration: configuration, router: router, metrics: metrics)
        try server.start()
    }

    @Test func aHandlersErrorDecidesTheStatusAndOthersSayNothingInternal() async throws {
        defer { inBackground { [server] in server.stop() } }
        let teapot = try await client.send("GET", server.baseURL + "/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.json?["error"]?["code"] == "teapot")
        let failed = try await client.send("GET", server.baseURL + "/fails")
        #expect(failed.status == 500)
        #expect(failed.json?["error"]?["code"] == "internal_error")
        #expect(!String(decoding: failed.body, as: UTF8.self).contains("secret"))
        // Keys in a fixed order, whatever the dictionary's own order.
        #expect(String(decoding: failed.body, as: UTF8.self).hasPrefix(#"{"error":{"code":"internal_error","message""#))
    }

    /// A handler's header value with CR or LF would let whoever controls it add headers or split
    /// the response: nothing of such a response is sent.
    @Test func aHeaderValueWithCRLFIsNeverSent() async throws {
        defer { inBackground { [server] in server.stop() } }
        let injected = try await client.send("GET", server.baseURL + "/split")
        #expect(injected.status == 500)
        #expect(injected.header("set-cookie") == nil)
        #expect(injected.header("x-name") == nil)
    }

    /// The engine decodes the query itself and ends the value at the decoded CR, so a CRLF sent in
    /// the query never reaches a handler, and nothing after the CR reaches the response.
    @Test func aDecodedCRLFInTheQueryNeverReachesTheResponse() async throws {
        defer { inBackground { [server] in server.stop() } }
        let fine = try await client.send("GET", server.baseURL + "/inject?v=plain")
        #expect(fine.header("x-name") == "plain")
        let injected = try await client.send("GET", server.baseURL + "/inject?v=a%0D%0ASet-Cookie:%20admin=1")
        #expect(injected.header("set-cookie") == nil)
        #expect(injected.header("x-name") == "a")
    }

    @Test func twoDifferentContentLengthsAre400() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhelloXX")
        let response = await runOffPool { socket.readResponse() }
        // The engine or the server's framing check refuses it; the handler never runs.
        #expect(response?.status == 400)
        #expect(echoCalls.value == 0)
    }

    @Test func metricsCanRequireAToken() async throws {
        defer { inBackground { [server] in server.stop() } }
        #expect(try await client.send("GET", server.baseURL + "/metrics").status == 403)
        let wrong = try await client.send("GET", server.baseURL + "/metrics", headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 403)
        let right = try await client.send(
            "GET", server.baseURL + "/metrics",
            headers: ["Authorization": "Bearer metrics-token-0123456789"])
        #expect(right.status == 200)
        #expect(String(decoding: right.body, as: UTF8.self).contains("courier_http_requests_total"))
    }

    @Test func corsIsPerRoute() async throws {
        defer { inBackground { [server] in server.stop() } }
        let port = server.port
        func preflight(_ path: String) async throws -> (status: Int, head: String, body: [UInt8])? {
            try await offPool {
                let socket = try RawSocket(port: port)
                try socket.send(
                    "OPTIONS \(path) HTTP/1.1\r\nHost: x\r\nOrigin: https://a.example\r\n"
                        + "Access-Control-Request-Method: POST\r\n\r\n")
                return socket.readResponse()
            }
        }
        let open = try await preflight("/public")
        #expect(open?.status == 204)
        #expect(open?.head.contains("Access-Control-Allow-Origin: *") == true)
        let closed = try await preflight("/echo")
        #expect(closed?.status == 403)
        #expect(closed?.head.contains("Access-Control-Allow-Origin") == false)
    }

    /// A client that sends its body one byte at a time is still cut off at the request deadline.
    @Test func aDrippingBodyIsCutOffAtTheDeadline() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port, timeoutSeconds: 30)
        try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        let sent = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let dripper = Thread {
            // The client's own pace (a byte every 200 ms, 60 bytes at most), not a wait for the server.
            for _ in 0..<60 where !done.load(ordering: .relaxed) {
                guard (try? socket.send("x")) != nil else { return }
                sent.add(1, ordering: .relaxed)
                usleep(200_000)
            }
        }
        dripper.start()
        let result = await runOffPool { socket.readUntilClosed() }
        let bytesSentWhenAnswered = sent.load(ordering: .relaxed)
        done.store(true, ordering: .relaxed)
        #expect(String(decoding: result.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
        // 500 ms of deadline plus the engine's tick: a handful of bytes, far from all 60.
        #expect(bytesSentWhenAnswered < 20)
        #expect(echoCalls.value == 0)
        // The worker is free again.
        #expect(try await client.send("POST", server.baseURL + "/echo", body: [1]).status == 200)
    }

    @Test func whileStoppingNewRequestsGet503AndTheOneInFlightIsAnswered() async throws {
        let server = self.server
        let inFlight = Task { try await client.send("POST", server.baseURL + "/slow", body: [1, 2]) }
        #expect(await waitOffPool(gate.entered))
        let stopped = Task { await server.shutdown(deadline: .seconds(20)) }
        let port = server.port
        // Until the one in flight is answered, newcomers are told to come back.
        var refused = false
        for _ in 0..<500 where !refused {
            refused = await runOffPool {
                guard let socket = try? RawSocket(port: port) else { return false }
                try? socket.send("GET /inject?v=x HTTP/1.1\r\nHost: x\r\n\r\n")
                guard let response = socket.readResponse() else { return false }
                return response.status == 503 && response.head.lowercased().contains("retry-after: 1")
                    && response.head.lowercased().contains("connection: close")
            }
        }
        #expect(refused)
        gate.open()
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(await stopped.value == 0)
    }
}
