import CourierCore

/// The innermost layer before a handler: refuses a body that was over the limit (413) and
/// decompresses `Content-Encoding: gzip` (or `deflate`) bodies within their own limit. A
/// streamed body reaches its handler as it came, still encoded.
struct RequestBodyMiddleware: SynchronousHTTPMiddleware {
    let maximumBodyBytes: Int
    let maximumDecompressedBodyBytes: Int

    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPResponder) async throws -> HTTPResponse {
        guard let decoded = try decoded(request, context: context) else { return try await next(request, context) }
        return try await next(decoded, context)
    }

    func handle(_ request: HTTPRequest, context: RequestContext, next: SynchronousHTTPResponder) throws
        -> HTTPResponse
    {
        // The request goes on as it came unless its body was decoded: no copy of it is made.
        guard let decoded = try decoded(request, context: context) else { return try next(request, context) }
        return try next(decoded, context)
    }

    /// The request with its body decompressed when it came encoded, `nil` when it goes on as it
    /// came; refused when its body was over the limit.
    private func decoded(_ request: HTTPRequest, context: RequestContext) throws -> HTTPRequest? {
        if context.bodyTooLarge {
            throw HTTPError(.payloadTooLarge, "request body exceeds \(maximumBodyBytes) bytes")
        }
        guard request.bodyFeed == nil, let encoding = request.header(.contentEncoding)?.lowercased(),
            encoding != "identity"
        else {
            return nil
        }
        guard encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate" else {
            throw HTTPError(.unsupportedEncoding, "Content-Encoding \(encoding) is not supported")
        }
        let body: [UInt8]
        do {
            body = try Gzip.decompress(request.body, limit: maximumDecompressedBodyBytes)
        } catch  where error.reason == .tooLarge {
            throw HTTPError(.payloadTooLarge, "decompressed body exceeds \(maximumDecompressedBodyBytes) bytes")
        } catch {
            throw HTTPError(.invalidEncoding, "body is not valid gzip")
        }
        return request.replacingBody(with: body)
    }
}
