internal import CourierCore

/// The SQL behind `SQLiteSignalStore`, over one connection that the caller holds (a pool's
/// writer or reader, or the connection of a running transaction). Throws `DatabaseError`
/// unchanged (callers translate it) and `.corruptRecord` for rows that do not decode.
struct SQLiteSignalTables {
    let database: Database

    init(_ database: Database) { self.database = database }

    /// The first row's first column as a secret, or nil; the temporary copy is zeroed.
    func fetchSecret(_ sql: String, _ arguments: [SQLValue]) throws -> SecretBytes? {
        try database.query(sql, arguments) { row -> SecretBytes in
            var bytes = row.bytes(0)
            defer { bytes.withUnsafeMutableBytes { Sodium.zero($0) } }
            return SecretBytes(bytes)
        }.first
    }

    /// Runs `sql` with `arguments` followed by `secret` as the last parameter, then clears the
    /// bindings so the statement does not keep a copy of the secret.
    func write(_ sql: String, _ arguments: [SQLValue], secret: SecretBytes) throws {
        let statement = try database.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var bytes = secret.unsafeCopiedBytes
        defer { bytes.withUnsafeMutableBytes { Sodium.zero($0) } }
        try statement.bind(bytes: bytes, at: Int32(arguments.count + 1))
        while try statement.step() {}
    }

    /// This device's identity and registration id, or nil before the first start.
    func localIdentity() throws -> (identity: IdentityKeyPair, registrationId: UInt32)? {
        let rows = try database.query("SELECT key_pair, registration_id FROM signal_local_identity WHERE id = 1") {
            row -> (SecretBytes, Int64) in
            var bytes = row.bytes(0)
            defer { bytes.withUnsafeMutableBytes { Sodium.zero($0) } }
            return (SecretBytes(bytes), row.int(1))
        }
        guard let (keyPair, registrationId) = rows.first else { return nil }
        guard let registration = UInt32(exactly: registrationId) else {
            throw SignalProtocolError(.corruptRecord, "stored registration id is out of range")
        }
        return (
            try SQLiteStorageError.decode("local identity", keyPair, IdentityKeyPair.init(serialized:)), registration
        )
    }

    /// Stores this device's identity (once; the row never changes).
    func storeLocalIdentity(_ identity: IdentityKeyPair, registrationId: UInt32) throws {
        try write(
            "INSERT INTO signal_local_identity (id, registration_id, key_pair) VALUES (1, ?, ?)",
            [.integer(Int64(registrationId))], secret: identity.serialized())
    }
}
