import SignalProtocol

/// Computes safety numbers between this account and its contacts.
///
/// ```swift
/// let presenter = SafetyNumberPresenter(localIdentifier: myAccountId, localKey: myIdentityKey)
/// let number = try presenter.present(contact: bobAccountId, key: bobIdentityKey)
/// print(number.lines.joined(separator: "\n"))   // 12 groups of 5 digits
/// draw(qr: number.qrCodeBytes)
/// ```
public struct SafetyNumberPresenter: Sendable {
    /// Our stable identifier (the account id both sides know us by).
    public let localIdentifier: String
    /// Our identity key.
    public let localKey: IdentityKey
    /// SHA-512 iterations; both sides must use the same (libsignal: 5200).
    public let iterations: Int

    /// Creates a presenter for this account.
    public init(localIdentifier: String, localKey: IdentityKey, iterations: Int = SafetyNumber.defaultIterations) {
        self.localIdentifier = localIdentifier
        self.localKey = localKey
        self.iterations = iterations
    }

    /// The safety number with `contact` whose identity key is `key`.
    /// - Throws: `SignalProtocolError.invalidArgument` when `iterations` is out of range.
    public func present(contact: String, key: IdentityKey) throws -> SafetyNumberPresentation {
        let fingerprint = try Fingerprint(
            localIdentifier: localIdentifier, localKey: localKey, remoteIdentifier: contact, remoteKey: key,
            iterations: iterations)
        return SafetyNumberPresentation(contact: contact, contactKey: key, fingerprint: fingerprint)
    }
}
