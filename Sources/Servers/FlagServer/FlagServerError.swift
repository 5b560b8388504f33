import CourierHTTP

/// An error the flag routes answer with: `{"error": {"code", "message"}}` and the code's status.
public struct FlagServerError: HTTPResponseError, Equatable, CustomStringConvertible {
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

        /// 400: the body is not valid JSON, or a path or query parameter is malformed.
        public static let invalidRequest = Code("invalid_request", 400)
        /// 422: a definition does not validate; nothing was stored or served.
        public static let invalidDefinition = Code("invalid_definition", 422)
        /// 403: the admin token is missing or wrong.
        public static let forbidden = Code("forbidden", 403)
        /// 404: no such environment or flag.
        public static let notFound = Code("not_found", 404)
        /// 503: the flag store failed.
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
