import CourierCore

/// Why an attachment could not be uploaded, downloaded or opened.
public struct AttachmentError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: ErrorCode {
        private enum Value: String, Sendable {
            case invalidPointer, tooLarge, notFound, sizeMismatch, digestMismatch, integrity
            case unauthorized, server, transport, cancelled
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A pointer field cannot belong to a real attachment (bad id, key, digest or size).
        public static let invalidPointer = Code(.invalidPointer)
        /// The server refused the size (HTTP 413).
        public static let tooLarge = Code(.tooLarge)
        /// No such attachment: unknown, expired, or not completely uploaded.
        public static let notFound = Code(.notFound)
        /// The downloaded blob is not as long as the pointer says: refused before hashing it.
        public static let sizeMismatch = Code(.sizeMismatch)
        /// The downloaded blob does not hash to the pointer's digest: refused before decrypting.
        public static let digestMismatch = Code(.digestMismatch)
        /// The blob matched its digest but its MAC or padding did not verify with the key.
        public static let integrity = Code(.integrity)
        /// The server refused the device's credentials.
        public static let unauthorized = Code(.unauthorized)
        /// The server answered with an unexpected status or body.
        public static let server = Code(.server)
        /// The connection failed and retries were exhausted.
        public static let transport = Code(.transport)
        /// The task was cancelled.
        public static let cancelled = Code(.cancelled)

        /// The code's stable name.
        public var name: String { value.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence without key material.
    public let message: String
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// The cause, if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, status: Int? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.underlying = underlying
    }

    /// `AttachmentError(code): message`.
    public var description: String { "AttachmentError(\(code)): \(message)" }
}
