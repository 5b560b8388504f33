internal import CourierCore

extension SQLiteSignalTables {
    func session(for address: ProtocolAddress) throws -> SessionRecord? {
        try fetchRecord(
            "session for \(address)", "SELECT record FROM signal_sessions WHERE name = ? AND device_id = ?",
            Self.arguments(address), at: Self.sessionLocation(address), SessionRecord.init(serialized:))
    }

    func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws {
        try write(
            "INSERT OR REPLACE INTO signal_sessions (name, device_id, record) VALUES (?, ?, ?)",
            Self.arguments(address), record: record.serialized(), at: Self.sessionLocation(address))
    }

    func preKey(id: UInt32) throws -> PreKeyRecord? {
        try record("prekey", id: id, in: "signal_prekeys", PreKeyRecord.init(serialized:))
    }

    func storePreKey(_ record: PreKeyRecord) throws {
        try store(record.serialized(), id: record.id, in: "signal_prekeys")
    }

    func removePreKey(id: UInt32) throws {
        try database.run("DELETE FROM signal_prekeys WHERE id = ?", [.integer(Int64(id))])
    }

    func signedPreKey(id: UInt32) throws -> SignedPreKeyRecord? {
        try record("signed prekey", id: id, in: "signal_signed_prekeys", SignedPreKeyRecord.init(serialized:))
    }

    func storeSignedPreKey(_ record: SignedPreKeyRecord) throws {
        try store(record.serialized(), id: record.id, in: "signal_signed_prekeys")
    }

    /// The record with `id` in one of the tables keyed by a prekey id.
    private func record<Record>(
        _ what: String, id: UInt32, in table: String, _ decode: (SecretBytes) throws -> Record
    ) throws -> Record? {
        try fetchRecord(
            "\(what) \(id)", "SELECT record FROM \(table) WHERE id = ?", [.integer(Int64(id))],
            at: .init(table: table, key: [String(id)]), decode)
    }

    /// Stores a record under `id` in one of the tables keyed by a prekey id.
    private func store(_ serialized: SecretBytes, id: UInt32, in table: String) throws {
        try write(
            "INSERT OR REPLACE INTO \(table) (id, record) VALUES (?, ?)", [.integer(Int64(id))], record: serialized,
            at: .init(table: table, key: [String(id)]))
    }

    func identity(for address: ProtocolAddress) throws -> IdentityKey? {
        try database.query(
            "SELECT identity_key FROM signal_identities WHERE name = ? AND device_id = ?", Self.arguments(address)
        ) { row in
            do {
                return try IdentityKey(serialized: row.bytes(0))
            } catch {
                throw SignalProtocolError(
                    .corruptRecord, "stored identity for \(address) cannot be decoded", underlying: error)
            }
        }.first
    }

    /// Records `identity`; true when a different key was stored before.
    func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress) throws -> Bool {
        // A corrupt stored key counts as a change: the new key replaces it and the user is told.
        let previous: IdentityKey?
        var wasCorrupt = false
        do {
            previous = try self.identity(for: address)
        } catch let error as SignalProtocolError where error.code == .corruptRecord {
            previous = nil
            wasCorrupt = true
        }
        try database.run(
            "INSERT OR REPLACE INTO signal_identities (name, device_id, identity_key) VALUES (?, ?, ?)",
            Self.arguments(address) + [.blob(identity.serialized)])
        return wasCorrupt || (previous != nil && previous != identity)
    }

    func senderKey(for name: SenderKeyName) throws -> SenderKeyRecord? {
        try fetchRecord(
            "sender key",
            "SELECT record FROM signal_sender_keys WHERE group_id = ? AND sender_name = ? AND sender_device_id = ?",
            [.text(name.groupId)] + Self.arguments(name.sender), at: Self.senderKeyLocation(name),
            SenderKeyRecord.init(serialized:))
    }

    func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) throws {
        try write(
            """
            INSERT OR REPLACE INTO signal_sender_keys (group_id, sender_name, sender_device_id, record)
            VALUES (?, ?, ?, ?)
            """,
            [.text(name.groupId)] + Self.arguments(name.sender), record: record.serialized(),
            at: Self.senderKeyLocation(name))
    }

    private static func arguments(_ address: ProtocolAddress) -> [SQLValue] {
        [.text(address.name), .integer(Int64(address.deviceId))]
    }

    private static func sessionLocation(_ address: ProtocolAddress) -> RecordSealer.Location {
        .init(table: "signal_sessions", key: [address.name, String(address.deviceId)])
    }

    private static func senderKeyLocation(_ name: SenderKeyName) -> RecordSealer.Location {
        .init(table: "signal_sender_keys", key: [name.groupId, name.sender.name, String(name.sender.deviceId)])
    }
}
