extension SQLiteSignalStore: IdentityKeyStore {
    /// This device's identity key pair (loaded when the store opened).
    public func identityKeyPair() -> IdentityKeyPair { identity }

    /// This device's registration id.
    public func localRegistrationId() -> UInt32 { registrationId }

    /// Records `identity` for `address`.
    /// - Returns: true when a different key was stored before (the peer's key changed).
    /// - Throws: `.storageFailure`.
    @discardableResult
    public func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress) throws -> Bool {
        try write("save an identity") { tables in
            try tables.database.transaction { try tables.saveIdentity(identity, for: address) }
        }
    }

    /// Applies `policy` to `identity` and the key stored for `address`.
    /// - Throws: `.storageFailure`, `.corruptRecord`.
    public func isTrustedIdentity(_ identity: IdentityKey, for address: ProtocolAddress, direction: IdentityDirection)
        throws -> Bool
    {
        if policy == .acceptChanges { return true }
        return policy.trusts(identity, stored: try self.identity(for: address))
    }

    /// The stored identity for `address`, or nil.
    /// - Throws: `.storageFailure`, `.corruptRecord`.
    public func identity(for address: ProtocolAddress) throws -> IdentityKey? {
        try read("load an identity") { try $0.identity(for: address) }
    }
}
