import CourierCore

/// Why a WebSocket operation failed.
public struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: ErrorCode {
        private enum Kind: String { case closed, slowReader, messageTooBig, invalidURL, connectFailed, timedOut }
        private let kind: Kind

        /// The socket is closed (or closing): nothing more can be sent.
        public static let closed = Code(kind: .closed)
        /// The peer did not read: the outbound queue stayed full past the deadline, and the
        /// socket was closed with 1008.
        public static let slowReader = Code(kind: .slowReader)
        /// The message is larger than the outbound queue can ever hold.
        public static let messageTooBig = Code(kind: .messageTooBig)
        /// The URL is not a `ws://` or `wss://` URL with a host.
        public static let invalidURL = Code(kind: .invalidURL)
        /// The connection or the handshake failed (refused, TLS, a status other than 101).
        public static let connectFailed = Code(kind: .connectFailed)
        /// The connection did not open within the connect timeout.
        public static let timedOut = Code(kind: .timedOut)

        /// The code's name.
        public var name: String { kind.rawValue }
    }

    /// What kind of failure.
    public let code: Code
    /// What happened, for people.
    public let message: String
    /// How the socket closed, when it did.
    public let close: WebSocketClose?

    package init(_ code: Code, _ message: String, close: WebSocketClose? = nil) {
        self.code = code
        self.message = message
        self.close = close
    }

    /// "closed: the WebSocket is closed (1001 going away)".
    public var description: String { "\(code): \(message)" }
}
