import CourierCore

/// What a handler answers.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Response headers (`Content-Length` is added by the server).
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(_ value: JSONValue, status: HTTPStatus = 200, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: JSONWriter.encode(value))
    }

    /// A plain-text response.
    public static func text(_ text: String, status: HTTPStatus = 200, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    /// The error shape of Courier's servers: `{"error":{"code":…,"message":…}}`.
    public static func error(status: HTTPStatus, code: String, message: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        json(["error": ["code": .string(code), "message": .string(message)]], status: status, headers: headers)
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
