import CourierHTTP

/// An error the collector answers a request with. Its code decides the HTTP status; the body
/// carries Segment's top-level `code` and `message` as well as Courier's `error` object.
public struct CollectorError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason and its status. New codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The text sent as `code`.
        public let rawValue: String
        /// The HTTP status of errors with this code.
        public let status: HTTPStatus
        private init(_ rawValue: String, _ status: HTTPStatus) {
            self.rawValue = rawValue
            self.status = status
        }

        /// 400: the body is not valid JSON (syntax, invalid UTF-8, a repeated key).
        public static let invalidJSON = Code("invalid_json", 400)
        /// 400: the JSON is valid but a field is missing or has the wrong type.
        public static let invalidRequest = Code("invalid_request", 400)
        /// Inside a 200's `rejected` list: one message of a batch failed validation.
        public static let invalidMessage = Code("invalid_message", 400)
        /// 401: no write key, a malformed one, or one the collector does not know.
        public static let unauthorized = Code("unauthorized", 401)
        /// 403: the project's kill switch is on.
        public static let projectDisabled = Code("project_disabled", 403)
        /// 403: the admin token is missing or wrong.
        public static let forbidden = Code("forbidden", 403)
        /// 404: no such project.
        public static let notFound = Code("not_found", 404)
        /// 413 (or, for one message of a batch, inside `rejected`): an event over the per-event
        /// limit.
        public static let eventTooLarge = Code("event_too_large", 413)
        /// 413: a batch over the byte or event-count limit.
        public static let batchTooLarge = Code("batch_too_large", 413)
        /// 429: too much work is waiting for a commit; retry after `Retry-After`.
        public static let overloaded = Code("overloaded", 429)
        /// 429: the write key or the client address sent more requests than its rate allows.
        public static let rateLimited = Code("rate_limited", 429)
        /// 503: the event store failed (for example a full disk); nothing was stored.
        public static let storageUnavailable = Code("storage_unavailable", 503)
        /// 503: the commit did not finish in time; the batch may or may not be stored, and a
        /// retry is safe (it is deduplicated by `messageId`).
        public static let commitTimeout = Code("commit_timeout", 503)
        /// 503: the collector is stopping.
        public static let shuttingDown = Code("shutting_down", 503)
        /// 507: the project's (or the collector's) storage quota is used up; nothing was
        /// stored, and the client keeps its events.
        public static let quotaExceeded = Code("quota_exceeded", 507)

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The reason.
    public let code: Code
    /// A sentence for a person; never SQL, paths or other internals.
    public let message: String
    /// Seconds to send as `Retry-After`, for 429 and 503.
    public var retryAfterSeconds: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The code's HTTP status.
    public var status: HTTPStatus { code.status }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The HTTP response: `{"code","error":{"code","message"},"message"}`.
    public func response() -> HTTPResponse {
        Self.segmentShaped(
            status: status, code: code.rawValue, message: message,
            headers: retryAfterSeconds.map { [("Retry-After", String($0))] } ?? [])
    }

    /// Segment's error shape: `code` and `message` at the top level, where Segment's clients read
    /// them, beside Courier's `error` object.
    static func segmentShaped(status: HTTPStatus, code: String, message: String, headers: [(String, String)])
        -> HTTPResponse
    {
        .json(
            [
                "code": .string(code), "message": .string(message),
                "error": ["code": .string(code), "message": .string(message)],
            ], status: status, headers: headers)
    }
}
