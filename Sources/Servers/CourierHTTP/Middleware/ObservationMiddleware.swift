import Foundation

/// The outermost layer: one access-log line and one metrics sample per request, with the final
/// status, and the request id on every answer (`X-Request-Id`).
struct ObservationMiddleware: SynchronousHTTPMiddleware {
    let metrics: HTTPMetrics
    let accessLog: (@Sendable (String) -> Void)?

    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        observed(request, context: context, response: try await next(request, context))
    }

    func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        observed(request, context: context, response: try next(request, context))
    }

    /// `response` is consumed, so the header goes into its own array (room for it was made when
    /// it was built) rather than into a copy.
    private func observed(_ request: HTTPRequest, context: RequestContext, response: consuming HTTPResponse)
        -> HTTPResponse
    {
        response.headers.append(("X-Request-Id", context.requestID))
        record(request, context: context, response: response)
        return response
    }

    func record(_ request: HTTPRequest, context: RequestContext, response: HTTPResponse) {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- context.startedAt) / 1e9
        if let series = context.metricsSeries {
            series.record(status: response.status.code, seconds: elapsed)
        } else {
            metrics.record(
                method: request.method.rawValue, route: context.route ?? "unmatched", status: response.status.code,
                seconds: elapsed)
        }
        if let accessLog {
            let hundredths = Int((elapsed * 100_000).rounded())
            let fraction = hundredths % 100
            let ms = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
            // The path is decoded: escape control characters so a client cannot forge log lines.
            var path = request.path
            if path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                path = request.path.unicodeScalars.map {
                    $0.value < 0x20 || $0.value == 0x7F ? "\\x\(String($0.value, radix: 16))" : String($0)
                }.joined()
            }
            accessLog(
                "\(request.remoteAddress) \"\(request.method) \(path)\" \(response.status.code) \(response.body.count) \(ms)ms id=\(context.requestID)"
            )
        }
    }
}
