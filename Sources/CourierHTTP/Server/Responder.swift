import CourierCore
import Foundation

/// The immutable request pipeline the worker threads share: framing checks, limits, gunzip,
/// CORS, routing, errors, metrics and the access log.
struct Responder: Sendable {
    let router: Router
    let configuration: HTTPServerConfiguration
    let metrics: HTTPMetrics
    let lifecycle: ServerLifecycle
    let watchdog: BodyReadWatchdog

    /// Answers a request whose body did not arrive whole (timeout or reset) without routing it.
    func refuseIncomplete(_ request: HTTPRequest, startedAt: UInt64) -> HTTPResponse {
        let response = HTTPError(.requestTimeout, "the request body did not arrive in time").response()
        finish(request, routeName: "unmatched", response: response, startedAt: startedAt)
        return response
    }

    /// Answers a request whose body has been read (or refused as too large).
    func respond(to request: HTTPRequest, bodyTooLarge: Bool, startedAt: UInt64) -> HTTPResponse {
        var routeName = "unmatched"
        var crossOrigin = CrossOriginPolicy.none
        var response: HTTPResponse
        do {
            try checkFraming(request)
            if lifecycle.isDraining {
                throw HTTPError(.unavailable, "the server is stopping; retry shortly", headers: [("Retry-After", "1")])
            }
            if request.method == "OPTIONS", let wanted = request.header("access-control-request-method") {
                response = try preflight(request, method: wanted.uppercased())
            } else {
                switch router.match(method: request.method, path: request.path) {
                case .notFound:
                    throw HTTPError(.notFound, "no route for \(request.path)")
                case .methodNotAllowed(let allowed):
                    throw HTTPError(
                        .methodNotAllowed, "\(request.method) is not allowed here",
                        headers: [("Allow", allowed.joined(separator: ", "))])
                case .found(let route, let parameters):
                    routeName = route.pattern
                    crossOrigin = route.crossOrigin
                    response = try handle(request, route: route, parameters: parameters, bodyTooLarge: bodyTooLarge)
                }
            }
        } catch let error as any HTTPResponseError {
            response = error.response()
        } catch {
            response = HTTPError(.internalError, "the request failed inside the server").response()
        }
        if crossOrigin == .anyOrigin, request.header("origin") != nil {
            response.headers.append(("Access-Control-Allow-Origin", "*"))
        }
        if !Self.headersAreSafe(response.headers) {
            // A value with CR or LF would let whoever controls it add headers or split the
            // response; nothing of such a response is sent.
            response = HTTPError(.internalError, "the response had an invalid header").response()
        }
        finish(request, routeName: routeName, response: response, startedAt: startedAt)
        return response
    }

    /// Two different lengths, or a length beside chunked framing, are how requests are smuggled
    /// past a proxy that reads the other one.
    private func checkFraming(_ request: HTTPRequest) throws(HTTPError) {
        if let problem = Self.framingProblem(request.headers) { throw HTTPError(.badRequest, problem) }
    }

    /// Why the request's framing is ambiguous, or `nil` when it is not.
    static func framingProblem(_ headers: [String: String]) -> String? {
        guard let length = headers["content-length"] else { return nil }
        let values = Set(length.split(separator: ",").map { String($0).trimmingCharactersInWhitespace() })
        if values.count > 1 { return "conflicting Content-Length headers" }
        if headers["transfer-encoding"] != nil { return "Content-Length and Transfer-Encoding together" }
        return nil
    }

    /// A browser's CORS preflight: allowed only for a route that admits any origin.
    private func preflight(_ request: HTTPRequest, method: String) throws(HTTPError) -> HTTPResponse {
        guard case .found(let route, _) = router.match(method: method, path: request.path),
            route.crossOrigin == .anyOrigin
        else {
            throw HTTPError(.forbidden, "cross-origin requests are not allowed for \(method) \(request.path)")
        }
        return HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Origin", "*"),
                ("Access-Control-Allow-Methods", route.method),
                ("Access-Control-Allow-Headers", "Content-Type, Content-Encoding, Authorization"),
                ("Access-Control-Max-Age", "86400"),
            ])
    }

    static func headersAreSafe(_ headers: [(String, String)]) -> Bool {
        for (name, value) in headers {
            if name.isEmpty || name.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: ":") }) {
                return false
            }
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) { return false }
        }
        return true
    }

    private func finish(_ request: HTTPRequest, routeName: String, response: HTTPResponse, startedAt: UInt64) {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- startedAt) / 1e9
        metrics.record(method: request.method, route: routeName, status: response.status, seconds: elapsed)
        if let log = configuration.accessLog {
            let ms = String(format: "%.2f", elapsed * 1000)
            // The path is decoded: escape control characters so a client cannot forge log lines.
            let path = request.path.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? "\\x\(String($0.value, radix: 16))" : String($0)
            }.joined()
            log(
                "\(request.remoteAddress) \"\(request.method) \(path)\" \(response.status) \(response.body.count) \(ms)ms"
            )
        }
    }

    private func handle(
        _ request: HTTPRequest, route: Router.Route, parameters: [String: String],
        bodyTooLarge: Bool
    ) throws -> HTTPResponse {
        if bodyTooLarge {
            throw HTTPError(.payloadTooLarge, "request body exceeds \(configuration.maximumBodyBytes) bytes")
        }
        var request = request
        let encoding = request.header("content-encoding")?.lowercased()
        if let encoding, encoding != "identity" {
            guard encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate" else {
                throw HTTPError(.unsupportedEncoding, "Content-Encoding \(encoding) is not supported")
            }
            do {
                let body = try Gzip.decompress(request.body, limit: configuration.maximumDecompressedBodyBytes)
                request = HTTPRequest(
                    method: request.method, path: request.path, queryString: request.queryString,
                    headers: request.headers, body: body, remoteAddress: request.remoteAddress)
            } catch  where error.reason == .tooLarge {
                throw HTTPError(
                    .payloadTooLarge,
                    "decompressed body exceeds \(configuration.maximumDecompressedBodyBytes) bytes")
            } catch {
                throw HTTPError(.invalidEncoding, "body is not valid gzip")
            }
        }
        request.pathParameters = parameters
        return try route.handler(request)
    }
}
