import CourierHTTP
import CourierTesting
import Testing

/// A plaintext request asking to upgrade to HTTP/2 (`curl --http2` on `http://`) is answered on
/// HTTP/1.1, as though the `Upgrade` header were absent; lws alone switched to HTTP/2 (101) and
/// the client got no answer.
@Suite(.timeLimit(.minutes(1)))
struct CleartextHTTP2UpgradeTests {
    let server: HTTPServer

    init() throws {
        var router = Router()
        router.add("GET", "/upgrade") { request in
            HTTPResponse(status: 200, body: Array((request.header("upgrade") ?? "none").utf8))
        }
        router.add("POST", "/echo") { request in HTTPResponse(status: 200, body: request.body) }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    private static let upgradeHeaders =
        "Connection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n"

    @Test(arguments: ["h2c", "H2C"])
    func aGetAskingForH2CIsAnsweredOnHTTP1AndItsHandlerSeesTheHeader(token: String) async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        try socket.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: \(token)\r\n\(Self.upgradeHeaders)\r\n")
        let response = await runOffPool { socket.readResponse() }
        #expect(response?.head.hasPrefix("HTTP/1.1 200") == true, "\(response?.head ?? "no answer")")
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == token, "as the client sent it")
        // The connection stays HTTP/1.1: a second request on it is answered too.
        try socket.send("GET /upgrade HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = await runOffPool { socket.readResponse() }
        #expect(second?.status == 200)
        #expect(second.map { String(decoding: $0.body, as: UTF8.self) } == "none")
    }

    @Test func aSecondUpgradeHeaderAfterH2CIsKeptAndTheRequestStaysOnHTTP1() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        try socket.send(
            "GET /upgrade HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nUpgrade: websocket\r\n\(Self.upgradeHeaders)\r\n")
        let response = await runOffPool { socket.readResponse() }
        #expect(response?.head.hasPrefix("HTTP/1.1 200") == true, "\(response?.head ?? "no answer")")
        let seen = response.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        #expect(seen.hasPrefix("h2c,") && seen.hasSuffix("websocket"), "\(seen)")
    }

    @Test func aPostAskingForH2CHasItsBodyRead() async throws {
        defer { inBackground { [server] in server.stop() } }
        let socket = try RawSocket(port: server.port)
        try socket.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\n\(Self.upgradeHeaders)Content-Length: 5\r\n\r\nhello")
        let response = await runOffPool { socket.readResponse() }
        #expect(response?.head.hasPrefix("HTTP/1.1 200") == true, "\(response?.head ?? "no answer")")
        #expect(response?.body == Array("hello".utf8))
    }
}
