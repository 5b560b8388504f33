import CourierHTTP

/// An error the sync routes answer with: `{"error": {"code", "message"}}` and the code's status.
public struct SyncServerError: HTTPResponseError, Equatable, CustomStringConvertible {
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

        /// 400: the body is not valid JSON, or a parameter is malformed.
        public static let invalidRequest = Code("invalid_request", 400)
        /// 400: a cursor that this server did not sign, or that was altered.
        public static let invalidCursor = Code("invalid_cursor", 400)
        /// 401: no bearer token, or one the server does not know.
        public static let unauthorized = Code("unauthorized", 401)
        /// 410: the cursor is older than the tombstone horizon (or, for a list, its maximum age):
        /// resync from `GET /v1/sync/snapshot` (or page again from the top).
        public static let cursorExpired = Code("cursor_expired", 410)
        /// 413: more operations in one push than the server takes.
        public static let tooLarge = Code("too_large", 413)
        /// 503: the sync store failed; nothing was applied.
        public static let storageUnavailable = Code("storage_unavailable", 503)

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The reason.
    public let code: Code
    /// A sentence for a person; never SQL or paths.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code's HTTP status.
    public var status: HTTPStatus { code.status }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The JSON answer.
    public func response() -> HTTPResponse {
        .error(status: status, code: code.rawValue, message: message)
    }
}
