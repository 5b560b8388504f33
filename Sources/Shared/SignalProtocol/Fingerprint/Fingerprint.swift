/// Both forms of libsignal's fingerprint for one pair of identities, from one computation of
/// each side's hash: the 60-digit safety number people read aloud and the bytes of its QR code.
public struct Fingerprint: Sendable, Equatable {
    /// The digits.
    public let safetyNumber: SafetyNumber
    /// The QR code's bytes and `compare(scanned:)`.
    public let scannable: ScannableFingerprint

    /// Computes both forms.
    /// - Parameters:
    ///   - localIdentifier: our stable identifier (account id or phone number).
    ///   - localKey: our identity key.
    ///   - remoteIdentifier: their stable identifier.
    ///   - remoteKey: their identity key.
    ///   - iterations: SHA-512 iterations (libsignal: 5200).
    ///   - version: the scannable format version (libsignal: 1).
    /// - Throws: `.invalidArgument` when `iterations` is out of range.
    public init(
        localIdentifier: String, localKey: IdentityKey, remoteIdentifier: String, remoteKey: IdentityKey,
        iterations: Int = SafetyNumber.defaultIterations, version: UInt32 = ScannableFingerprint.currentVersion
    ) throws {
        try FingerprintHash.validate(iterations: iterations)
        let local = FingerprintHash.hash(identifier: localIdentifier, key: localKey, iterations: iterations)
        let remote = FingerprintHash.hash(identifier: remoteIdentifier, key: remoteKey, iterations: iterations)
        safetyNumber = SafetyNumber(localHash: local, remoteHash: remote)
        scannable = ScannableFingerprint(version: version, localHash: local, remoteHash: remote)
    }
}
