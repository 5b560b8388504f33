import CourierHTTP

/// An error the collector answers a request with. Its body carries Segment's top-level `code`
/// and `message` as well as Courier's `error` object.
public struct CollectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason. New codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The text sent as `code`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The body is not valid JSON.
        public static let invalidJSON = Code("invalid_json")
        /// The JSON is valid but a field is missing or has the wrong type.
        public static let invalidRequest = Code("invalid_request")
        /// No write key, or one the collector does not know.
        public static let unauthorized = Code("unauthorized")
        /// The project's kill switch is on.
        public static let projectDisabled = Code("project_disabled")
        /// An event over the per-event limit.
        public static let eventTooLarge = Code("event_too_large")
        /// A batch over the byte or event-count limit.
        public static let batchTooLarge = Code("batch_too_large")
        /// Too much work is waiting; retry after the `Retry-After` delay.
        public static let overloaded = Code("rate_limited")
        /// The event store failed (for example a full disk); nothing was stored.
        public static let storageUnavailable = Code("storage_unavailable")
        /// No such project.
        public static let notFound = Code("not_found")
        /// The admin token is missing or wrong.
        public static let forbidden = Code("forbidden")

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The reason.
    public let code: Code
    /// A sentence for a person.
    public let message: String
    /// The HTTP status it maps to.
    public let status: Int

    /// Creates an error.
    public init(_ code: Code, _ message: String, status: Int) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The HTTP response: `{"code","message","error":{"code","message"}}`.
    func response(retryAfterSeconds: Int? = nil) -> HTTPResponse {
        var headers: [(String, String)] = []
        if let retryAfterSeconds { headers.append(("Retry-After", String(retryAfterSeconds))) }
        return .error(status: status, code: code.rawValue, message: message,
                      extra: ["code": .string(code.rawValue), "message": .string(message)], headers: headers)
    }
}
