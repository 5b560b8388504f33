/// An HTTP status: its code and reason phrase. Written as an integer literal where a status is
/// expected (`HTTPResponse(status: 202)`), compared with one (`response.status == 200`), or with
/// the constants.
public struct HTTPStatus: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int

    /// A status with `code`, kept within 100…999 (what the status line can carry).
    public init(code: Int) { self.code = min(max(code, 100), 999) }

    /// A status from a literal.
    public init(integerLiteral value: Int) { self.init(code: value) }

    /// `1xx`: informational.
    public var isInformational: Bool { (100..<200).contains(code) }
    /// `2xx`: success.
    public var isSuccess: Bool { (200..<300).contains(code) }
    /// `4xx`: the client's error.
    public var isClientError: Bool { (400..<500).contains(code) }
    /// `5xx`: the server's error.
    public var isServerError: Bool { (500..<600).contains(code) }

    /// 101: the connection now speaks the protocol the client asked for (a WebSocket).
    public static let switchingProtocols: HTTPStatus = 101
    /// 200
    public static let ok: HTTPStatus = 200
    /// 204
    public static let noContent: HTTPStatus = 204
    /// 400
    public static let badRequest: HTTPStatus = 400
    /// 401
    public static let unauthorized: HTTPStatus = 401
    /// 403
    public static let forbidden: HTTPStatus = 403
    /// 404
    public static let notFound: HTTPStatus = 404
    /// 405
    public static let methodNotAllowed: HTTPStatus = 405
    /// 408
    public static let requestTimeout: HTTPStatus = 408
    /// 413
    public static let contentTooLarge: HTTPStatus = 413
    /// 415
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 429
    public static let tooManyRequests: HTTPStatus = 429
    /// 500
    public static let internalServerError: HTTPStatus = 500
    /// 503
    public static let serviceUnavailable: HTTPStatus = 503
    /// 507
    public static let insufficientStorage: HTTPStatus = 507

    /// The reason phrase of the status line (RFC 9110), or `Status` for a code without one.
    public var reasonPhrase: String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 507: "Insufficient Storage"
        default: "Status"
        }
    }

    /// `404 Not Found`.
    public var description: String { "\(code) \(reasonPhrase)" }
}
