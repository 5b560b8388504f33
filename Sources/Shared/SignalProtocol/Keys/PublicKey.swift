internal import CourierCore
/// A Curve25519 public key, serialized as libsignal does: `0x05 || 32 bytes`.
public struct PublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The type byte libsignal puts before a Curve25519 ("DJB") key.
    public static let typeByte: UInt8 = 0x05
    /// Length of `serialized`.
    public static let serializedLength = 33

    /// The 32-byte Montgomery u-coordinate.
    public let rawBytes: [UInt8]

    /// Creates a key from its 32 raw bytes.
    /// - Throws: `.invalidKey` when the length is not 32.
    public init(rawBytes: [UInt8]) throws {
        guard rawBytes.count == 32 else { throw SignalProtocolError(.invalidKey, "public key must be 32 bytes") }
        self.rawBytes = rawBytes
    }

    /// Parses `0x05 || 32 bytes`.
    /// - Throws: `.invalidKey` on any other length or type byte.
    public init<Bytes: Collection>(serialized: Bytes) throws where Bytes.Element == UInt8 {
        guard serialized.count == Self.serializedLength else {
            throw SignalProtocolError(.invalidKey, "serialized public key must be 33 bytes, got \(serialized.count)")
        }
        guard serialized.first == Self.typeByte else {
            throw SignalProtocolError(.invalidKey, "unknown public key type")
        }
        rawBytes = Array(serialized.dropFirst())
    }

    /// `0x05 || rawBytes`.
    public var serialized: [UInt8] { [Self.typeByte] + rawBytes }

    /// Checks an XEdDSA signature made by the matching private key.
    public func verifySignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        XEdDSA.verify(publicKey: rawBytes, message: message, signature: signature)
    }

    /// Hex of the serialized key; public keys are not secret.
    public var description: String { Hex.encode(serialized) }
}

/// A long-term identity public key.
public typealias IdentityKey = PublicKey
