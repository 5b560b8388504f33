import CourierCore

/// What a handler answers.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Response headers (`Content-Length` is added by the server).
    public var headers: [(String, String)]
    /// The body (empty when `bodyStream` is set).
    public var body: [UInt8]
    /// A body sent while it is produced, instead of `body`.
    public var bodyStream: HTTPResponseBodyStream?

    /// Creates a response.
    public init(status: HTTPStatus, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is sent as `bodyStream` produces it (a download): each
    /// chunk is written when the socket can take more, with `Content-Length: length` when given,
    /// else chunked; the sequence is pulled at most a few chunks ahead of the client.
    ///
    /// ```swift
    /// router.add("GET", "/export") { _, _ in
    ///     HTTPResponse(status: 200, headers: [("Content-Type", "text/csv")], bodyStream: store.rows())
    /// }
    /// ```
    public init<Chunks: AsyncSequence & Sendable>(
        status: HTTPStatus, headers: [(String, String)] = [], bodyStream: Chunks, length: Int? = nil
    ) where Chunks.Element == [UInt8] {
        self.status = status
        self.headers = headers
        self.body = []
        self.bodyStream = HTTPResponseBodyStream(bodyStream, length: length)
    }

    /// A JSON response.
    public static func json(_ value: JSONValue, status: HTTPStatus = 200, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: withRoomForServerHeaders(("Content-Type", "application/json"), headers),
            body: JSONWriter.encode(value))
    }

    /// `first` and `rest`, with room for the headers the server adds to every answer
    /// (`X-Request-Id`, `X-Content-Type-Options`, and CORS's): the array is not regrown for them.
    private static func withRoomForServerHeaders(_ first: (String, String), _ rest: [(String, String)] = [])
        -> [(String, String)]
    {
        var headers: [(String, String)] = []
        headers.reserveCapacity(rest.count + 4)
        headers.append(first)
        headers.append(contentsOf: rest)
        return headers
    }

    /// A plain-text response.
    public static func text(_ text: String, status: HTTPStatus = 200, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: withRoomForServerHeaders(("Content-Type", contentType)), body: Array(text.utf8))
    }

    /// The error shape of Courier's servers: `{"error":{"code":…,"message":…}}`.
    public static func error(status: HTTPStatus, code: String, message: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        json(["error": ["code": .string(code), "message": .string(message)]], status: status, headers: headers)
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.0, name) }?.1
    }

    /// Whether two header names are the same, ASCII letters compared without case (no string is
    /// made: this runs on every answer).
    static func sameName(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        for (a, b) in zip(first.utf8, second.utf8) where a != b {
            // Equal without case only as the two cases of one ASCII letter (they differ in 0x20).
            guard a ^ b == 0x20, (a | 0x20) >= UInt8(ascii: "a"), (a | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}
