/// Where one-time prekeys live.
public protocol PreKeyStore: Sendable {
    /// The prekey with `id`, or nil.
    func loadPreKey(id: UInt32) throws -> PreKeyRecord?
    /// Stores a prekey.
    func storePreKey(_ record: PreKeyRecord) throws
    /// Deletes a used prekey.
    func removePreKey(id: UInt32) throws
}

/// Where signed prekeys live.
public protocol SignedPreKeyStore: Sendable {
    /// The signed prekey with `id`, or nil.
    func loadSignedPreKey(id: UInt32) throws -> SignedPreKeyRecord?
    /// Stores a signed prekey.
    func storeSignedPreKey(_ record: SignedPreKeyRecord) throws
}
