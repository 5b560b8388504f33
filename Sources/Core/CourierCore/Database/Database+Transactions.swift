extension Database {
    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back if it throws or the commit fails.
    ///
    /// Not reentrant: inside an open transaction SQLite refuses the `BEGIN`. Use `savepoint` for
    /// work that may run either at the top level or inside a caller's transaction.
    /// - Throws: what `body` throws, or `DatabaseError` from begin/commit; never an error of the
    ///   rollback that follows a failure.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try inTransaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body` inside `BEGIN DEFERRED … COMMIT`: its queries share one snapshot. Inside an
    /// open transaction, `body` simply runs in it.
    /// - Throws: what `body` throws, or `DatabaseError` from begin/commit.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard isAutocommit else { return try body() }
        return try inTransaction(begin: "BEGIN DEFERRED", body)
    }

    /// Runs `body` all or nothing, whether or not a transaction is open (GRDB's `inSavepoint` is
    /// the model).
    ///
    /// At the top level it is a write transaction (`BEGIN IMMEDIATE … COMMIT`); inside one it is a
    /// `SAVEPOINT … RELEASE`, and savepoints nest. When `body` throws, only its own changes are
    /// undone: a caller that catches the error keeps its earlier writes and can still commit them.
    ///
    /// The first error wins: the error of `body` (or of the release or commit) is the one thrown;
    /// a rollback that fails after it (SQLite may already have rolled the whole transaction back
    /// after a full disk or an I/O error) never replaces it.
    ///
    /// ```swift
    /// try pool.write { db in
    ///     for message in batch {
    ///         do { try db.savepoint { db in try store(message, in: db) } } catch { rejected.append(message) }
    ///     }
    /// }
    /// ```
    /// - Throws: the first error: what `body` throws, or `DatabaseError` from begin, release or
    ///   commit.
    public func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
        if isAutocommit { return try transaction { try body(self) } }
        // The three statements are cached, not parsed again per call: some callers open one per
        // message. SQLite resolves a repeated name to the innermost savepoint, so one name nests.
        // ROLLBACK TO undoes the changes but keeps the savepoint open; RELEASE closes it.
        return try allOrNothing(
            begin: { try run("SAVEPOINT courier") }, commit: { try run("RELEASE courier") },
            rollback: {
                try run("ROLLBACK TO courier")
                try run("RELEASE courier")
            }
        ) { try body(self) }
    }

    private func inTransaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        // A failed rollback (the transaction already rolled back by SQLite, or gone) must not
        // hide why the transaction failed.
        try allOrNothing(
            begin: { try execute(begin) }, commit: { try execute("COMMIT") }, rollback: { try execute("ROLLBACK") },
            body)
    }
}
