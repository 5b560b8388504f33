import CourierCore

/// Why a messenger operation failed: a code to branch on, a sentence, and the error underneath.
public struct MessengerClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong; new codes may be added.
    public struct Code: ErrorCode {
        private enum Value: String {
            case server, transport, storage, protocolFailure, identityChanged, notRegistered, invalidArgument
            case malformedEnvelope
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The server answered with an unexpected status.
        public static let server = Code(.server)
        /// No answer arrived (refused, reset, timeout).
        public static let transport = Code(.transport)
        /// The local database failed.
        public static let storage = Code(.storage)
        /// The Signal protocol refused (bad signature, bad MAC, missing prekey…).
        public static let protocolFailure = Code(.protocolFailure)
        /// A contact's identity key changed: sending to them waits until the app accepts the new key.
        public static let identityChanged = Code(.identityChanged)
        /// The device has no account yet.
        public static let notRegistered = Code(.notRegistered)
        /// The caller passed something unusable.
        public static let invalidArgument = Code(.invalidArgument)
        /// An envelope from the server could not be read.
        public static let malformedEnvelope = Code(.malformedEnvelope)

        /// The code's name.
        public var name: String { value.rawValue }
    }

    /// The code.
    public let code: Code
    /// A sentence for logs; never holds plaintext or keys.
    public let message: String
    /// The HTTP status, for `.server`.
    public let status: Int?
    /// The error underneath, if any.
    public let underlying: (any Error)?
    /// The server's `Retry-After` (a 429 or 503), when it gave one (in seconds or as a date).
    public let retryAfter: Duration?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, status: Int? = nil, underlying: (any Error)? = nil,
        retryAfter: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.underlying = underlying
        self.retryAfter = retryAfter
    }

    /// Whether trying the same request later may succeed: no answer, a 5xx, a 408 or a 429.
    var isRetryable: Bool {
        if code == .transport { return true }
        guard code == .server, let status else { return false }
        return status == 408 || status == 429 || (500...599).contains(status)
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
