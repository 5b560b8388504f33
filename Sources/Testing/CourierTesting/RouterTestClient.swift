import CourierCore
import CourierHTTP
import Synchronization

/// Calls a server's routes in process: the request goes through the same routing, middleware
/// chain and answer checks as on the engine (errors, CORS, request ids, body limits, 503 while
/// draining), with no socket, no port and no thread. HummingbirdTesting's `RouterTestFramework`
/// is the model; tests that need the wire (framing, keep-alive, timeouts, WebSockets) start the
/// real server instead.
///
/// ```swift
/// let client = RouterTestClient(router: router, middleware: [console.middleware])
/// let answer = try await client.execute("GET", "/v1/flags/production", headers: ["Authorization": "Bearer t"])
/// #expect(answer.status == 200)
/// ```
public struct RouterTestClient: Sendable {
    /// The server whose pipeline answers; it is never started by the client.
    public let server: HTTPServer

    /// A client for `server`'s routes and middleware (started or not).
    public init(server: HTTPServer) {
        self.server = server
    }

    /// A client for a server built from these parts, which never listens.
    /// - Parameters:
    ///   - router: the routes.
    ///   - configuration: the limits (body sizes) the pipeline enforces.
    ///   - metrics: where the requests are counted.
    ///   - middleware: the application's middleware, outermost first, as `HTTPServer` takes it.
    public init(
        router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        metrics: HTTPMetrics = HTTPMetrics(), middleware: [any HTTPMiddleware] = []
    ) {
        server = HTTPServer(configuration: configuration, router: router, metrics: metrics, middleware: middleware)
    }

    /// Sends one request and reads its whole answer, a streamed body included (use `stream` for
    /// one that does not end).
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - path: the path, with an optional `?query`.
    ///   - headers: request headers (any case, as a client sends them).
    ///   - body: the request body.
    ///   - remoteAddress: the peer address the handler sees.
    /// - Returns: the answer, its streamed body (if any) collected into `body`.
    /// - Throws: what a streamed body's producer throws (on the wire the connection would close).
    public func execute(
        _ method: HTTPMethod, _ path: String, headers: [String: String] = [:], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) async throws -> HTTPResponse {
        var response = await stream(method, path, headers: headers, body: body, remoteAddress: remoteAddress)
        if let stream = response.bodyStream {
            response.bodyStream = nil
            let collected = Chunks()
            try await stream.read { chunk in
                collected.append(chunk)
                return true
            }
            response.body = collected.bytes
        }
        return response
    }

    /// Sends a JSON body (`Content-Type: application/json`).
    public func execute(
        _ method: HTTPMethod, _ path: String, json: JSONValue, headers: [String: String] = [:]
    ) async throws -> HTTPResponse {
        var all = headers
        all["Content-Type"] = "application/json"
        return try await execute(method, path, headers: all, body: JSONWriter.encode(json))
    }

    /// Sends one request and returns its answer as the handler made it: a streamed body is
    /// left in `bodyStream` (read it with `HTTPResponse.chunks()`).
    public func stream(
        _ method: HTTPMethod, _ path: String, headers: [String: String] = [:], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) async -> HTTPResponse {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var lowercased: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            lowercased[key] = lowercased[key].map { $0 + ", " + value } ?? value
        }
        if !body.isEmpty && lowercased["content-length"] == nil { lowercased["content-length"] = String(body.count) }
        let request = HTTPRequest(
            method: method, path: HTTPRequest.percentDecode(parts[0], plusIsSpace: false),
            queryString: parts.count > 1 ? String(parts[1]) : "",
            headers: lowercased, body: body, remoteAddress: remoteAddress)
        return await server.respondInProcess(to: request)
    }

    /// Collects chunks off the producer's task.
    private final class Chunks: Sendable {
        private let storage = Mutex<[UInt8]>([])
        func append(_ chunk: [UInt8]) { storage.withLock { $0 += chunk } }
        var bytes: [UInt8] { storage.withLock { $0 } }
    }
}

extension HTTPResponse {
    /// The body parsed as JSON, or `nil` when it is not JSON.
    public var jsonBody: JSONValue? { try? JSONParser.parse(body) }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A streamed body's chunks as they are produced (for an answer that does not end, such as
    /// an event stream); the whole `body` as one chunk otherwise. Ending the iteration stops
    /// the producer, as a client closing its connection would.
    public func chunks() -> AsyncThrowingStream<[UInt8], any Error> {
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        guard let stream = bodyStream else {
            if !body.isEmpty { continuation.yield(body) }
            continuation.finish()
            return chunks
        }
        let producer = Task {
            do {
                try await stream.read { chunk in
                    if case .terminated = continuation.yield(chunk) { return false }
                    return !Task.isCancelled
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in producer.cancel() }
        return chunks
    }
}
