internal import CourierCore

/// The SQL behind `SQLiteSignalStore`, over one connection that the caller holds (a pool's
/// writer or reader, or the connection of a running transaction). Throws `DatabaseError`
/// unchanged (callers translate it) and `.corruptRecord` for rows that do not open or decode.
struct SQLiteSignalTables {
    let database: Database
    let sealer: RecordSealer

    init(_ database: Database, _ sealer: RecordSealer) {
        self.database = database
        self.sealer = sealer
    }

    /// The first row's first column, a sealed record, opened and decoded; nil when there is no row.
    func fetchRecord<T>(
        _ what: String, _ sql: String, _ arguments: [SQLValue], at location: RecordSealer.Location,
        _ decode: (SecretBytes) throws -> T
    ) throws -> T? {
        guard let blob = try database.query(sql, arguments, row: { $0.bytes(0) }).first else { return nil }
        let record: SecretBytes
        do {
            record = try sealer.open(blob, at: location)
        } catch {
            throw SignalProtocolError(
                .corruptRecord, "stored \(what) cannot be opened: changed, moved or sealed with another key",
                underlying: error)
        }
        return try SQLiteStorageError.decode(what, record, decode)
    }

    /// Runs `sql` with `arguments` followed by `record`, sealed for `location`, as the last parameter.
    func write(_ sql: String, _ arguments: [SQLValue], record: SecretBytes, at location: RecordSealer.Location) throws {
        try database.run(sql, arguments + [.blob(sealer.seal(record, at: location))])
    }

    /// This device's identity and registration id, or nil before the first start.
    func localIdentity() throws -> (identity: IdentityKeyPair, registrationId: UInt32)? {
        guard
            let registrationId = try database.query(
                "SELECT registration_id FROM signal_local_identity WHERE id = 1", row: { $0.int(0) }
            ).first
        else { return nil }
        guard let registration = UInt32(exactly: registrationId) else {
            throw SignalProtocolError(.corruptRecord, "stored registration id is out of range")
        }
        guard
            let identity = try fetchRecord(
                "local identity", "SELECT key_pair FROM signal_local_identity WHERE id = 1", [],
                at: Self.localIdentityLocation, IdentityKeyPair.init(serialized:))
        else { return nil }
        return (identity, registration)
    }

    /// Stores this device's identity (once; the row never changes).
    func storeLocalIdentity(_ identity: IdentityKeyPair, registrationId: UInt32) throws {
        try write(
            "INSERT INTO signal_local_identity (id, registration_id, key_pair) VALUES (1, ?, ?)",
            [.integer(Int64(registrationId))], record: identity.serialized(), at: Self.localIdentityLocation)
    }

    private static let localIdentityLocation = RecordSealer.Location(table: "signal_local_identity", key: ["1"])
}
