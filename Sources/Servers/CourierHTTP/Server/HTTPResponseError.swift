/// An error that knows how it goes on the wire: handlers throw it and the server answers with
/// its `response()` (Hummingbird's `HTTPResponseError` is the model). Any other error a handler
/// throws is answered `500 internal_error` without its text, which may hold internals.
public protocol HTTPResponseError: Error, Sendable {
    /// The HTTP status.
    var status: HTTPStatus { get }
    /// The full answer: status, headers and body.
    func response() -> HTTPResponse
}
