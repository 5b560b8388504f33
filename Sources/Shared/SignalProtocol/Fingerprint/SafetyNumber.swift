/// The numeric safety number two users compare to verify each other's identity keys, computed as
/// libsignal's displayable fingerprint (version 0).
public struct SafetyNumber: Sendable, Equatable, CustomStringConvertible {
    /// libsignal's default iteration count.
    public static let defaultIterations = 5200

    /// Our 30 digits.
    public let localDigits: String
    /// Their 30 digits.
    public let remoteDigits: String

    /// Computes the safety number for one local and one remote identity.
    /// - Parameters:
    ///   - localIdentifier: our stable identifier (for example the phone number or account id).
    ///   - localKey: our identity key.
    ///   - remoteIdentifier: their stable identifier.
    ///   - remoteKey: their identity key.
    ///   - iterations: SHA-512 iterations; must match the peer (libsignal: 5200).
    /// - Throws: `.invalidArgument` when `iterations` is not positive or absurdly large.
    public init(
        localIdentifier: String, localKey: IdentityKey, remoteIdentifier: String, remoteKey: IdentityKey,
        iterations: Int = SafetyNumber.defaultIterations
    ) throws {
        try FingerprintHash.validate(iterations: iterations)
        self.init(
            localHash: FingerprintHash.hash(identifier: localIdentifier, key: localKey, iterations: iterations),
            remoteHash: FingerprintHash.hash(identifier: remoteIdentifier, key: remoteKey, iterations: iterations))
    }

    /// The digits of two `FingerprintHash` values (each at least 30 bytes).
    init(localHash: [UInt8], remoteHash: [UInt8]) {
        localDigits = Self.digits(localHash)
        remoteDigits = Self.digits(remoteHash)
    }

    /// The 60 digits both sides display identically: the smaller half first.
    public var displayText: String {
        localDigits <= remoteDigits ? localDigits + remoteDigits : remoteDigits + localDigits
    }

    /// `displayText`; the digits are meant to be shown.
    public var description: String { displayText }

    /// The first 30 bytes of the hash become six 5-digit groups (40-bit big-endian chunk mod 100000).
    private static func digits(_ hash: [UInt8]) -> String {
        var text = ""
        for chunk in 0..<6 {
            var value: UInt64 = 0
            for byte in hash[(chunk * 5)..<(chunk * 5 + 5)] { value = value << 8 | UInt64(byte) }
            let group = String(value % 100_000)
            text += String(repeating: "0", count: 5 - group.count) + group
        }
        return text
    }
}
