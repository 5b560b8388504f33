/// An error of the sync client.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable reason. New codes may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's text.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The server could not be reached or failed (5xx): retry later; nothing is lost.
        public static let transport = Code("transport")
        /// The server refused the token.
        public static let unauthorized = Code("unauthorized")
        /// The cursor is older than the server's tombstone horizon: resync from a snapshot
        /// (the cycle does so by itself).
        public static let mustRefetch = Code("must_refetch")
        /// The server answered something the protocol does not allow.
        public static let invalidResponse = Code("invalid_response")
        /// After a resync the local record set does not match the snapshot's checksum; nothing
        /// was changed.
        public static let checksumMismatch = Code("checksum_mismatch")
        /// The local store failed.
        public static let storage = Code("storage")
        /// The caller asked for something that does not exist or is malformed.
        public static let invalidArgument = Code("invalid_argument")

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The reason.
    public let code: Code
    /// A sentence for a person.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
