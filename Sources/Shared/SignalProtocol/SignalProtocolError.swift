public import CourierCore

/// The one error type thrown by the `SignalProtocol` module.
///
/// `code` is extensible: new codes can be added without breaking `switch`-free callers, and
/// `message` never contains key material or plaintext.
public struct SignalProtocolError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: ErrorCode {
        private enum Value: String, Sendable {
            case cryptoFailure, invalidKey, invalidSignature, invalidProtobuf, invalidMessage
            case invalidMAC, unknownVersion, legacyVersion, duplicateMessage, counterTooFarAhead
            case noSession, untrustedIdentity, missingPreKey, missingSignedPreKey, noSenderKeyState
            case invalidArgument, storageFailure, corruptRecord
            case fingerprintVersionMismatch, fingerprintParsing
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A C library call failed (out of memory, bad parameter, low-order point).
        public static let cryptoFailure = Code(.cryptoFailure)
        /// A public or private key has the wrong length or type byte.
        public static let invalidKey = Code(.invalidKey)
        /// A signature did not verify.
        public static let invalidSignature = Code(.invalidSignature)
        /// Bytes are not a well-formed protobuf message of the expected shape.
        public static let invalidProtobuf = Code(.invalidProtobuf)
        /// A message is malformed or cannot be decrypted with any known state.
        public static let invalidMessage = Code(.invalidMessage)
        /// A message authentication code did not match.
        public static let invalidMAC = Code(.invalidMAC)
        /// A message carries a protocol version this implementation does not know.
        public static let unknownVersion = Code(.unknownVersion)
        /// A message carries a protocol version older than 3, which is no longer supported.
        public static let legacyVersion = Code(.legacyVersion)
        /// A message whose key was already used: a replay or a duplicate delivery.
        public static let duplicateMessage = Code(.duplicateMessage)
        /// A message counter is further ahead than the configured skip limit.
        public static let counterTooFarAhead = Code(.counterTooFarAhead)
        /// No session exists for the remote address.
        public static let noSession = Code(.noSession)
        /// The identity store refused the remote identity key.
        public static let untrustedIdentity = Code(.untrustedIdentity)
        /// A one-time prekey named by a message is not in the store.
        public static let missingPreKey = Code(.missingPreKey)
        /// A signed prekey named by a message is not in the store.
        public static let missingSignedPreKey = Code(.missingSignedPreKey)
        /// No sender key state exists for a group sender.
        public static let noSenderKeyState = Code(.noSenderKeyState)
        /// A caller-supplied argument is out of range.
        public static let invalidArgument = Code(.invalidArgument)
        /// A persistent store could not read or write (disk full, I/O error, locked, not a
        /// database); `underlying` holds the store's own error.
        public static let storageFailure = Code(.storageFailure)
        /// A stored record could not be decoded; `underlying` holds the decoding error.
        public static let corruptRecord = Code(.corruptRecord)

        /// A scanned fingerprint carries another fingerprint version than ours (libsignal's
        /// `FingerprintVersionMismatch`): one side must update, the keys were not compared.
        public static let fingerprintVersionMismatch = Code(.fingerprintVersionMismatch)
        /// Scanned bytes are not a combined fingerprint (libsignal's `FingerprintParsingError`).
        public static let fingerprintParsing = Code(.fingerprintParsing)

        /// The code's stable name.
        public var name: String { value.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation without secrets.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the stable code.
    ///   - message: a human explanation; must not contain key material.
    ///   - underlying: the cause, if any.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `code: message`.
    public var description: String { "SignalProtocolError(\(code)): \(message)" }
}
