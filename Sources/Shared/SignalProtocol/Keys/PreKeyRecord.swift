/// A one-time prekey: used by at most one incoming session, then deleted.
public struct PreKeyRecord: Sendable {
    /// Identifier published with the key (24-bit in libsignal).
    public let id: UInt32
    /// The key pair.
    public let keyPair: KeyPair

    /// Wraps an existing key pair.
    public init(id: UInt32, keyPair: KeyPair) {
        self.id = id
        self.keyPair = keyPair
    }
}
