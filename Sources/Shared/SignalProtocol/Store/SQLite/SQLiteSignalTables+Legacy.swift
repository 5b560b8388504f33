internal import CourierCore

extension SQLiteSignalTables {
    /// A table whose records are sealed: the key columns that name a row (and whether each holds
    /// text or an integer), and the record column.
    private struct SealedTable {
        let name: String
        let keyColumns: [(name: String, isText: Bool)]
        let recordColumn: String
    }

    private static let sealedTables = [
        SealedTable(name: "signal_local_identity", keyColumns: [("id", false)], recordColumn: "key_pair"),
        SealedTable(
            name: "signal_sessions", keyColumns: [("name", true), ("device_id", false)], recordColumn: "record"),
        SealedTable(name: "signal_prekeys", keyColumns: [("id", false)], recordColumn: "record"),
        SealedTable(name: "signal_signed_prekeys", keyColumns: [("id", false)], recordColumn: "record"),
        SealedTable(
            name: "signal_sender_keys",
            keyColumns: [("group_id", true), ("sender_name", true), ("sender_device_id", false)],
            recordColumn: "record"),
    ]

    /// Seals records written before encryption at rest. Those are plain `Storage/` protobuf, whose
    /// first byte is always the format-version tag 0x78; sealed blobs start with their own format
    /// byte. Run it inside the opening transaction; `secure_delete` zeroes the plaintext it replaces.
    /// Does nothing once done: schema migration 2 leaves a marker table that this drops.
    /// - Returns: how many records were sealed.
    @discardableResult
    func sealLegacyRecords() throws -> Int {
        let pending = try database.query(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'signal_records_to_seal'", row: { $0.int(0) })
        guard !pending.isEmpty else { return 0 }
        var sealed = 0
        for table in Self.sealedTables {
            let keys = table.keyColumns.map(\.name)
            let rows = try database.query(
                """
                SELECT \(keys.joined(separator: ", ")), \(table.recordColumn) FROM \(table.name)
                WHERE substr(\(table.recordColumn), 1, 1) = x'78'
                """
            ) { row -> (values: [SQLValue], location: [String], record: SecretBytes) in
                var values: [SQLValue] = []
                var location: [String] = []
                for (index, column) in table.keyColumns.enumerated() {
                    let text = column.isText ? row.text(Int32(index)) ?? "" : String(row.int(Int32(index)))
                    values.append(column.isText ? .text(text) : .integer(row.int(Int32(index))))
                    location.append(text)
                }
                var bytes = row.bytes(Int32(keys.count))
                defer { bytes.withUnsafeMutableBytes { Sodium.zero($0) } }
                return (values, location, SecretBytes(bytes))
            }
            // The sealed record is bound last, after the key values: `?N` numbers it explicitly.
            let match = keys.enumerated().map { "\($1) = ?\($0 + 1)" }.joined(separator: " AND ")
            let sql = "UPDATE \(table.name) SET \(table.recordColumn) = ?\(keys.count + 1) WHERE \(match)"
            for row in rows {
                try write(sql, row.values, record: row.record, at: .init(table: table.name, key: row.location))
                sealed += 1
            }
        }
        try database.execute("DROP TABLE signal_records_to_seal")
        return sealed
    }
}
