extension SQLiteSignalStore: SessionStore {
    /// The record for `address`, or nil.
    /// - Throws: `.storageFailure`, `.corruptRecord`.
    public func loadSession(for address: ProtocolAddress) throws -> SessionRecord? {
        try read("load the session") { try $0.session(for: address) }
    }

    /// Replaces the record for `address`.
    /// - Throws: `.storageFailure`.
    public func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws {
        try write("store the session") { try $0.storeSession(record, for: address) }
    }
}

extension SQLiteSignalStore: PreKeyStore {
    /// The one-time prekey with `id`, or nil.
    /// - Throws: `.storageFailure`, `.corruptRecord`.
    public func loadPreKey(id: UInt32) throws -> PreKeyRecord? {
        try read("load a prekey") { try $0.preKey(id: id) }
    }

    /// Stores a one-time prekey.
    /// - Throws: `.storageFailure`.
    public func storePreKey(_ record: PreKeyRecord) throws {
        try write("store a prekey") { try $0.storePreKey(record) }
    }

    /// Deletes a one-time prekey.
    /// - Throws: `.storageFailure`.
    public func removePreKey(id: UInt32) throws {
        try write("remove a prekey") { try $0.removePreKey(id: id) }
    }
}

extension SQLiteSignalStore: SignedPreKeyStore {
    /// The signed prekey with `id`, or nil.
    /// - Throws: `.storageFailure`, `.corruptRecord`.
    public func loadSignedPreKey(id: UInt32) throws -> SignedPreKeyRecord? {
        try read("load a signed prekey") { try $0.signedPreKey(id: id) }
    }

    /// Stores a signed prekey.
    /// - Throws: `.storageFailure`.
    public func storeSignedPreKey(_ record: SignedPreKeyRecord) throws {
        try write("store a signed prekey") { try $0.storeSignedPreKey(record) }
    }
}

extension SQLiteSignalStore: SenderKeyStore {
    /// The sender key record for `name`, or nil.
    /// - Throws: `.storageFailure`, `.corruptRecord`.
    public func loadSenderKey(for name: SenderKeyName) throws -> SenderKeyRecord? {
        try read("load a sender key") { try $0.senderKey(for: name) }
    }

    /// Replaces the sender key record for `name`.
    /// - Throws: `.storageFailure`.
    public func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) throws {
        try write("store a sender key") { try $0.storeSenderKey(record, for: name) }
    }
}
