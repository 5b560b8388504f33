/// The request headers the server itself reads on every request (framing, the request id, the
/// body's encoding, the client behind a proxy, CORS), found in lws's table without hashing
/// their names.
enum KnownHeader: Int, CaseIterable {
    case contentLength, transferEncoding, contentEncoding, requestID, forwardedFor, origin
    case accessControlRequestMethod

    /// The header's name, lowercase.
    var name: String {
        switch self {
        case .contentLength: "content-length"
        case .transferEncoding: "transfer-encoding"
        case .contentEncoding: "content-encoding"
        case .requestID: "x-request-id"
        case .forwardedFor: "x-forwarded-for"
        case .origin: "origin"
        case .accessControlRequestMethod: "access-control-request-method"
        }
    }
}
