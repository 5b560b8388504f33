import CourierCore
import CourierHTTP

/// An answer the messenger's routes give instead of a success: `{"code": "...", "message": "..."}`
/// with the status, plus the fields a client acts on (409's `missingDevices`, …).
public struct MessengerError: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    public let status: HTTPStatus
    /// A stable, machine-readable code.
    public let code: String
    /// What went wrong, for people.
    public let message: String
    /// Fields a client acts on, merged into the body.
    public var details: [String: JSONValue] = [:]
    /// Extra headers (`Retry-After`, `Range`).
    public var headers: [(String, String)] = []

    /// Creates an error.
    public init(_ status: HTTPStatus, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The answer.
    public func response() -> HTTPResponse {
        var body = details
        body["code"] = .string(code)
        body["message"] = .string(message)
        return .json(.object(body), status: status, headers: headers)
    }

    public var description: String { "\(status) \(code): \(message)" }

    static func badRequest(_ message: String) -> MessengerError { MessengerError(400, "bad_request", message) }

    static func rateLimited(retryAfter seconds: Int) -> MessengerError {
        var error = MessengerError(429, "rate_limited", "too many requests; retry after \(seconds) s")
        error.headers = [("Retry-After", String(seconds))]
        return error
    }

    static func store(_ error: MessengerStoreError) -> MessengerError {
        switch error.kind {
        case .notFound: MessengerError(404, "not_found", error.message)
        case .conflict: MessengerError(409, "conflict", error.message)
        case .limitReached: MessengerError(411, "device_limit", error.message)
        case .diskFull: MessengerError(507, "insufficient_storage", "the server's disk is full; nothing was stored")
        case .storage: MessengerError(500, "storage_error", "the server could not store this")
        }
    }
}
