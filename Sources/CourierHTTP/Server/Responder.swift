import CourierCore
import Foundation

/// The immutable request pipeline the worker threads share: limits, gunzip, routing, errors,
/// metrics and the access log.
struct Responder: Sendable {
    let router: Router
    let configuration: HTTPServerConfiguration
    let metrics: HTTPMetrics

    /// Answers a request whose body did not arrive whole (timeout or reset) without routing it.
    func refuseIncomplete(_ request: HTTPRequest, startedAt: UInt64) -> HTTPResponse {
        let response = HTTPResponse.error(status: 408, code: "request_timeout",
                                          message: "the request body did not arrive in time")
        finish(request, routeName: "unmatched", response: response, startedAt: startedAt)
        return response
    }

    /// Answers a request whose body has been read (or refused as too large).
    func respond(to request: HTTPRequest, bodyTooLarge: Bool, startedAt: UInt64) -> HTTPResponse {
        var routeName = "unmatched"
        let response: HTTPResponse
        switch router.match(method: request.method, path: request.path) {
        case .notFound:
            response = .error(status: 404, code: "not_found", message: "no route for \(request.path)")
        case .methodNotAllowed(let allowed):
            response = .error(status: 405, code: "method_not_allowed",
                              message: "\(request.method) is not allowed here",
                              headers: [("Allow", allowed.joined(separator: ", "))])
        case .found(let route, let parameters):
            routeName = route.pattern
            response = handle(request, route: route, parameters: parameters, bodyTooLarge: bodyTooLarge)
        }
        finish(request, routeName: routeName, response: response, startedAt: startedAt)
        return response
    }

    private func finish(_ request: HTTPRequest, routeName: String, response: HTTPResponse, startedAt: UInt64) {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- startedAt) / 1e9
        metrics.record(method: request.method, route: routeName, status: response.status, seconds: elapsed)
        if let log = configuration.accessLog {
            let ms = String(format: "%.2f", elapsed * 1000)
            // The path is decoded: escape control characters so a client cannot forge log lines.
            let path = request.path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\x\(String($0.value, radix: 16))" : String($0) }.joined()
            log("\(request.remoteAddress) \"\(request.method) \(path)\" \(response.status) \(response.body.count) \(ms)ms")
        }
    }

    private func handle(_ request: HTTPRequest, route: Router.Route, parameters: [String: String],
                        bodyTooLarge: Bool) -> HTTPResponse {
        if bodyTooLarge {
            return .error(status: 413, code: "payload_too_large",
                          message: "request body exceeds \(configuration.maximumBodyBytes) bytes",
                          extra: ["code": "payload_too_large",
                                  "message": .string("request body exceeds \(configuration.maximumBodyBytes) bytes")])
        }
        var request = request
        let encoding = request.header("content-encoding")?.lowercased()
        if let encoding, encoding != "identity" {
            guard encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate" else {
                return .error(status: 415, code: "unsupported_encoding", message: "Content-Encoding \(encoding) is not supported")
            }
            do {
                let body = try Gzip.decompress(request.body, limit: configuration.maximumDecompressedBodyBytes)
                request = HTTPRequest(method: request.method, path: request.path, queryString: request.queryString,
                                      headers: request.headers, body: body, remoteAddress: request.remoteAddress)
            } catch where error.reason == .tooLarge {
                let message = "decompressed body exceeds \(configuration.maximumDecompressedBodyBytes) bytes"
                return .error(status: 413, code: "payload_too_large", message: message,
                              extra: ["code": "payload_too_large", "message": .string(message)])
            } catch {
                return .error(status: 400, code: "invalid_encoding", message: "body is not valid gzip: \(error.message)",
                              extra: ["code": "invalid_encoding", "message": "body is not valid gzip"])
            }
        }
        request.pathParameters = parameters
        return route.handler(request)
    }
}
