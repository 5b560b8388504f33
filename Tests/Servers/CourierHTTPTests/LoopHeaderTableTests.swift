import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import CourierHTTP

/// A route answered in the loop's callback reads its request's headers from lws's table one name
/// at a time (`LoopHeaderTable`): it sees what a handler task sees, each request on a kept
/// connection its own, and a request the handler keeps after answering still has them.
@Suite(.timeLimit(.minutes(2)))
struct LoopHeaderTableTests {
    /// The requests the `/keep` handler kept past its answer, and the gate `/suspends` waits at.
    final class Kept: Sendable {
        let requests = Mutex<[HTTPRequest]>([])
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
    }

    static let asked = ["user-agent", "accept", "x-correlation-id", "x-client", "x-unlisted", "cookie"]

    let kept = Kept()
    let server: HTTPServer

    init() throws {
        let kept = kept
        var router = Router()
        let answer: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            var fields: [String: JSONValue] = [:]
            for name in Self.asked { fields[name] = request.header(name).map(JSONValue.string) ?? .null }
            fields["byUppercaseName"] = request.header("User-Agent").map(JSONValue.string) ?? .null
            fields["all"] = .object(request.headers.mapValues(JSONValue.string))
            return .json(.object(fields))
        }
        router.add(.get, "/loop", execution: .onLoop, answer)
        router.add(.get, "/task", answer)
        router.add(.post, "/known", execution: .onLoop) { request in
            var fields: [String: JSONValue] = [:]
            for known in KnownHeader.allCases {
                fields[known.name] = request.header(known).map(JSONValue.string) ?? .null
            }
            return .json(.object(fields))
        }
        router.add(.get, "/suspends", execution: .onLoop) { request, _ in
            let before = request.header("user-agent") ?? "none"
            kept.enteredContinuation.yield()
            var release = kept.release.makeAsyncIterator()
            _ = await release.next()
            // Woken after the callback that started it ended: read from the table's copy.
            return .text("\(before) \(request.header("user-agent") ?? "none") \(request.header(.requestID) ?? "none")")
        }
        router.add(.get, "/keep", execution: .onLoop) { request in
            kept.requests.withLock { $0.append(request) }
            return HTTPResponse(status: 204)
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.extraHeaderNames = ["X-Client"]
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    private static func head(_ path: String, _ headers: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n"
    }

    private static func fields(_ body: [UInt8]) throws -> [String: JSONValue] {
        guard case .object(let fields) = try JSONParser.parse(body) else {
            throw HTTPError(.badRequest, "not an object")
        }
        return fields
    }

    @Test func aRouteOnTheLoopSeesTheHeadersAHandlerTaskSees() async throws {
        let headers =
            "User-Agent: probe/1\r\nAccept: text/plain\r\nAccept: application/json\r\nX-Correlation-Id: c-1\r\n"
            + "X-Client: app-7\r\nX-Unlisted: dropped\r\nCookie: a=1\r\n"
        let port = server.port
        let (loop, task) = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(Self.head("/loop", headers))
            let loop = socket.readResponse()
            try socket.send(Self.head("/task", headers))
            return (loop, socket.readResponse())
        }
        let onLoop = try Self.fields(try #require(loop).body)
        let asTask = try Self.fields(try #require(task).body)
        #expect(onLoop == asTask)
        #expect(onLoop["user-agent"] == .string("probe/1"))
        #expect(onLoop["byUppercaseName"] == .string("probe/1"))
        // A repeated header arrives as one value, its lines joined with a comma and a space.
        #expect(onLoop["accept"] == .string("text/plain, application/json"))
        #expect(onLoop["x-correlation-id"] == .string("c-1"))
        #expect(onLoop["x-client"] == .string("app-7"))
        #expect(onLoop["cookie"] == .string("a=1"))
        // A name lws has no slot for, neither listed nor configured, is not seen (lws 4.1 cannot
        // list the names it does not know).
        #expect(onLoop["x-unlisted"] == .null)
        guard case .object(let all) = onLoop["all"] else {
            Issue.record("no dictionary of headers")
            return
        }
        #expect(all["host"] == .string("x"))
        #expect(all["x-client"] == .string("app-7"))
        await server.shutdown(deadline: .zero)
    }

    /// Repeated lines of a header are one value, each line without the blanks around it; cookie
    /// lines are joined as one `Cookie` header (`; `), so each cookie is still found.
    @Test func repeatedLinesAreJoinedAsOneValue() async throws {
        let headers = "Accept:   text/plain  \r\nAccept:\tapplication/json\r\nCookie: a=1\r\nCookie: b=2\r\n"
        let port = server.port
        let response = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(Self.head("/loop", headers))
            return socket.readResponse()
        }
        let fields = try Self.fields(try #require(response).body)
        #expect(fields["accept"] == .string("text/plain, application/json"))
        #expect(fields["cookie"] == .string("a=1; b=2"))
        await server.shutdown(deadline: .zero)
    }

    /// A request nothing keeps is read from lws and its table let go, not copied; one its handler
    /// keeps is copied once.
    @Test func onlyARequestThatOutlivesItsCallbackHasItsTableCopied() async throws {
        let port = server.port
        let statuses = try await offPool {
            let socket = try RawSocket(port: port)
            let plain = "POST /known HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            var statuses: [Int?] = []
            for request in [plain, plain, Self.head("/keep", "User-Agent: kept\r\n")] {
                try socket.send(request)
                statuses.append(socket.readResponse()?.status)
            }
            return statuses
        }
        #expect(statuses == [200, 200, 204])
        #expect(server.metrics.headerTablesCopiedOnTheLoop == 1)
        await server.shutdown(deadline: .zero)
    }

    @Test func eachRequestOnAKeptConnectionReadsItsOwnHeaders() async throws {
        let port = server.port
        let (first, second) = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(Self.head("/loop", "User-Agent: first\r\nX-Correlation-Id: c-1\r\n"))
            let first = socket.readResponse()
            try socket.send(Self.head("/loop", "User-Agent: second\r\n"))
            return (first, socket.readResponse())
        }
        let one = try Self.fields(try #require(first).body)
        let two = try Self.fields(try #require(second).body)
        #expect(one["user-agent"] == .string("first"))
        #expect(one["x-correlation-id"] == .string("c-1"))
        #expect(two["user-agent"] == .string("second"))
        #expect(two["x-correlation-id"] == .null)
        await server.shutdown(deadline: .zero)
    }

    /// The headers the server reads on every request are found by their resolved lookups, as by
    /// name.
    @Test func theHeadersTheServerReadsAreFoundWithoutTheirNames() async throws {
        let port = server.port
        let (lengthFramed, chunked) = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(
                "POST /known HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Encoding: identity\r\n"
                    + "X-Request-Id: r-1\r\nX-Forwarded-For: 192.0.2.1\r\nOrigin: https://app.example\r\n"
                    + "Access-Control-Request-Method: PUT\r\n\r\n{}")
            let lengthFramed = socket.readResponse()
            try socket.send("POST /known HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
            return (lengthFramed, socket.readResponse())
        }
        let known = try Self.fields(try #require(lengthFramed).body)
        #expect(known["content-length"] == .string("2"))
        #expect(known["content-encoding"] == .string("identity"))
        #expect(known["x-request-id"] == .string("r-1"))
        #expect(known["x-forwarded-for"] == .string("192.0.2.1"))
        #expect(known["origin"] == .string("https://app.example"))
        #expect(known["access-control-request-method"] == .string("PUT"))
        #expect(known["transfer-encoding"] == .null)
        #expect(try Self.fields(try #require(chunked).body)["transfer-encoding"] == .string("chunked"))
        await server.shutdown(deadline: .zero)
    }

    /// Requests sent together on one connection: lws reads the second's head into its table after
    /// the first's transaction ended, and the first, kept by its handler, keeps its own headers.
    @Test func pipelinedRequestsKeepTheirOwnHeaders() async throws {
        let port = server.port
        let answers = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(
                Self.head("/keep", "User-Agent: piped-1\r\nX-Correlation-Id: p-1\r\n")
                    + Self.head("/loop", "User-Agent: piped-2\r\nConnection: close\r\n"))
            return String(decoding: socket.readUntilClosed().bytes, as: UTF8.self)
        }
        #expect(answers.hasPrefix("HTTP/1.1 204"))
        #expect(answers.contains("\"user-agent\":\"piped-2\""))
        #expect(answers.contains("\"x-correlation-id\":null"))
        let kept = kept.requests.withLock { $0 }
        try #require(kept.count == 1)
        #expect(kept[0].header("user-agent") == "piped-1")
        #expect(kept[0].header("x-correlation-id") == "p-1")
        await server.shutdown(deadline: .zero)
    }

    /// A handler on the loop that suspends goes on after the callback that started it ended
    /// (`.answersLater`): it reads the same headers then as before.
    @Test func aHandlerOnTheLoopThatSuspendsReadsItsHeadersAfterwards() async throws {
        let port = server.port
        // Whatever fails below, the handler is let go, so the server can stop.
        defer { kept.releaseContinuation.finish() }
        async let answer = offPool {
            let socket = try RawSocket(port: port, timeoutSeconds: 60)
            try socket.send(Self.head("/suspends", "User-Agent: waits\r\nX-Request-Id: r-9\r\n"))
            return socket.readResponse()
        }
        var entered = kept.entered.makeAsyncIterator()
        _ = await entered.next()
        // The loop answers one callback at a time: once another request on the loop is
        // answered, the callback that started the handler has ended.
        let other = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(Self.head("/loop", ""))
            return socket.readResponse()?.status
        }
        #expect(other == 200)
        kept.releaseContinuation.yield()
        let response = try #require(try await answer)
        #expect(String(decoding: response.body, as: UTF8.self) == "waits waits r-9")
        await server.shutdown(deadline: .zero)
    }

    /// The handler keeps the request past its answer: its headers were copied out of lws's table
    /// before the transaction ended, and later requests on the connection do not change them.
    @Test func aRequestKeptAfterItsAnswerStillHasItsHeaders() async throws {
        let port = server.port
        let statuses = try await offPool {
            let socket = try RawSocket(port: port)
            try socket.send(Self.head("/keep", "User-Agent: kept-1\r\nAccept: a\r\nAccept: b\r\n"))
            let first = socket.readResponse()?.status
            try socket.send(Self.head("/keep", "User-Agent: kept-2\r\nX-Client: app-2\r\n"))
            return [first, socket.readResponse()?.status]
        }
        #expect(statuses == [204, 204])
        let requests = kept.requests.withLock { $0 }
        try #require(requests.count == 2)
        #expect(requests[0].header("user-agent") == "kept-1")
        #expect(requests[0].header("accept")?.hasPrefix("a,") == true)
        #expect(requests[0].header("accept")?.hasSuffix("b") == true)
        #expect(requests[0].header("x-client") == nil)
        #expect(requests[0].headers["host"] == "x")
        #expect(requests[1].header("user-agent") == "kept-2")
        #expect(requests[1].header("x-client") == "app-2")
        await server.shutdown(deadline: .zero)
    }
}
