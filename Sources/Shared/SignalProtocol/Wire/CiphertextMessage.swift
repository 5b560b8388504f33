/// An encrypted message as handed to the transport.
public enum CiphertextMessage: Sendable {
    /// A message in an established session (libsignal type 2).
    case whisper(SignalMessage)
    /// A session-opening message (libsignal type 3).
    case preKey(PreKeySignalMessage)

    /// libsignal's `CIPHERTEXT_SIGNAL_TYPE`.
    public static let whisperType: UInt8 = 2
    /// libsignal's `CIPHERTEXT_PREKEY_TYPE`.
    public static let preKeyType: UInt8 = 3

    /// The type number that travels beside the bytes in an envelope.
    public var type: UInt8 {
        switch self {
        case .whisper: Self.whisperType
        case .preKey: Self.preKeyType
        }
    }

    /// The wire bytes.
    public var serialized: [UInt8] {
        switch self {
        case .whisper(let message): message.serialized
        case .preKey(let message): message.serialized
        }
    }

    /// Parses bytes received with an envelope type.
    /// - Throws: `.invalidMessage` for an unknown type, or the parser's error.
    public init(type: UInt8, serialized: [UInt8]) throws {
        switch type {
        case Self.whisperType: self = .whisper(try SignalMessage(serialized: serialized))
        case Self.preKeyType: self = .preKey(try PreKeySignalMessage(serialized: serialized))
        default: throw SignalProtocolError(.invalidMessage, "unknown ciphertext type \(type)")
        }
    }
}
