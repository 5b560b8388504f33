/// The server's own errors (no route, body too large, a slow client…) and a general error that
/// handlers may throw. The code decides the status; the body is
/// `{"error":{"code":…,"message":…}}`.
///
/// ```swift
/// router.add("GET", "/v1/things/{id}") { request in
///     guard let thing = things[request.pathParameters["id"] ?? ""] else {
///         throw HTTPError(.notFound, "no such thing")
///     }
///     return .json(thing.json)
/// }
/// ```
public struct HTTPError: HTTPResponseError, CustomStringConvertible {
    /// A stable, machine-readable reason and the status it goes out with. New codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The text sent as `code`.
        public let rawValue: String
        /// The HTTP status of errors with this code.
        public let status: HTTPStatus

        /// A code of the application's own.
        public init(_ rawValue: String, status: HTTPStatus) {
            self.rawValue = rawValue
            self.status = status
        }

        /// 400: the request is malformed (conflicting headers, bad framing…).
        public static let badRequest = Code("bad_request", status: 400)
        /// 400: the body is not valid gzip/deflate.
        public static let invalidEncoding = Code("invalid_encoding", status: 400)
        /// 403: credentials are missing or wrong.
        public static let forbidden = Code("forbidden", status: 403)
        /// 404: no route.
        public static let notFound = Code("not_found", status: 404)
        /// 405: the route exists for other methods.
        public static let methodNotAllowed = Code("method_not_allowed", status: 405)
        /// 408: the body did not arrive in time.
        public static let requestTimeout = Code("request_timeout", status: 408)
        /// 413: the body is over a limit.
        public static let payloadTooLarge = Code("payload_too_large", status: 413)
        /// 415: a `Content-Encoding` the server does not read.
        public static let unsupportedEncoding = Code("unsupported_encoding", status: 415)
        /// 426: a WebSocket route asked for without the upgrade.
        public static let upgradeRequired = Code("upgrade_required", status: 426)
        /// 429: too many requests; retry after `Retry-After`.
        public static let rateLimited = Code("rate_limited", status: 429)
        /// 500: a handler failed in a way it did not describe.
        public static let internalError = Code("internal_error", status: 500)
        /// 503: the server is stopping or cannot serve now.
        public static let unavailable = Code("unavailable", status: 503)

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The reason.
    public let code: Code
    /// A sentence for a person; never internals such as SQL or file paths.
    public let message: String
    /// Headers to send with the error (`Allow`, `Retry-After`…).
    public var headers: [(String, String)]

    /// Creates an error.
    public init(_ code: Code, _ message: String, headers: [(String, String)] = []) {
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The code's status.
    public var status: HTTPStatus { code.status }

    /// The JSON error answer.
    public func response() -> HTTPResponse {
        .error(status: code.status, code: code.rawValue, message: message, headers: headers)
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}

/// Why an `HTTPServer` could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// A sentence for the operator.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
