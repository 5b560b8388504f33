import CourierCore

extension PostgresPool {
    /// Runs `body` only if no other instance is running the job `name` right now: under
    /// `pg_try_advisory_lock`, so that of the instances sharing the database one does an hourly
    /// job (expiry, pruning, tombstone collection) and the others skip that round.
    /// - Returns: what `body` returned, or `nil` when another instance holds the job.
    /// - Throws: what `body` throws, or `PostgresError`.
    public func ifNoOtherInstanceRuns<T>(_ name: String, _ body: (PostgresConnection) throws -> T) throws -> T? {
        try withConnection { db in
            let key = Self.lockKey(name)
            let taken = try db.query("SELECT pg_try_advisory_lock($1)", [.integer(key)]) { $0.int(0) != 0 }.first
            guard taken == true else { return nil }
            defer { _ = try? db.run("SELECT pg_advisory_unlock($1)", [.integer(key)]) }
            return try body(db)
        }
    }

    /// A stable 64-bit advisory lock key for a job name (FNV-1a of its UTF-8).
    static func lockKey(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: hash)
    }
}
