import CourierCore

/// The one HTTP error of every server module: the server's own errors (no route, body too large,
/// a slow client…) and what handlers throw. The code decides the status; the body is
/// `{"error":{"code":…,"message":…}}`, plus the `details` a client acts on. A module declares its
/// own codes as `extension HTTPError.Code { static let … }`, in snake_case.
///
/// ```swift
/// router.add("GET", "/v1/things/{id}") { request in
///     guard let thing = things[request.pathParameters["id"] ?? ""] else {
///         throw HTTPError(.notFound, "no such thing")
///     }
///     return .json(thing.json)
/// }
/// ```
public struct HTTPError: HTTPResponseError, Equatable, CustomStringConvertible {
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
        /// 400: the body is not valid JSON or lacks what the route needs, or a path or query
        /// parameter is malformed.
        public static let invalidRequest = Code("invalid_request", status: 400)
        /// 400: the body is not valid gzip/deflate.
        public static let invalidEncoding = Code("invalid_encoding", status: 400)
        /// 401: no credentials, or ones the server does not know.
        public static let unauthorized = Code("unauthorized", status: 401)
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
        /// 503: the store failed; nothing was changed.
        public static let storageUnavailable = Code("storage_unavailable", status: 503)

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The reason.
    public let code: Code
    /// A sentence for a person; never internals such as SQL or file paths.
    public let message: String
    /// Headers to send with the error (`Allow`, `Retry-After`…).
    public var headers: [(String, String)]
    /// Fields a client acts on, sent at the top level of the body beside `error` (a 409's
    /// `missingDevices`…).
    public var details: [String: JSONValue]

    /// Creates an error.
    /// - Parameters:
    ///   - code: the reason, which decides the status.
    ///   - message: a sentence for a person.
    ///   - headers: headers to send with it.
    ///   - details: fields for the top level of the body.
    public init(
        _ code: Code, _ message: String, headers: [(String, String)] = [], details: [String: JSONValue] = [:]
    ) {
        self.code = code
        self.message = message
        self.headers = headers
        self.details = details
    }

    /// Creates an error whose answer carries `Retry-After: seconds` (for 429 and 503).
    public init(_ code: Code, _ message: String, retryAfterSeconds seconds: Int) {
        self.init(code, message, headers: [("Retry-After", String(seconds))])
    }

    /// The `Retry-After` seconds it is sent with, if any.
    public var retryAfterSeconds: Int? {
        get { headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1) } }
        set {
            headers.removeAll { $0.0.lowercased() == "retry-after" }
            if let newValue { headers.append(("Retry-After", String(newValue))) }
        }
    }

    /// The code's status.
    public var status: HTTPStatus { code.status }

    /// The JSON error answer: `details` with `error: {code, message}`.
    public func response() -> HTTPResponse {
        var body = details
        body["error"] = ["code": .string(code.rawValue), "message": .string(message)]
        return .json(.object(body), status: code.status, headers: headers)
    }

    /// Same code, message, headers (in order) and details.
    public static func == (lhs: HTTPError, rhs: HTTPError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.details == rhs.details
            && lhs.headers.elementsEqual(rhs.headers) { $0.0 == $1.0 && $0.1 == $1.1 }
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
