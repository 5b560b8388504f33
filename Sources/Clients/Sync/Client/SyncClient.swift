import CourierCore
import SyncWire

/// The offline-first sync client: a local SQLite store that is the app's truth, an oplog of
/// pending operations, and a short, resumable cycle that pushes them, resolves conflicts by the
/// record type's policy, and pulls the server's changes by cursor.
///
/// ```swift
/// var configuration = SyncConfiguration()
/// configuration.policies = ["notes": .fieldMerge]
/// let sync = try SyncClient(path: dir + "/sync.sqlite", configuration: configuration,
///                           transport: HTTPSyncTransport(baseURL: url, token: token))
/// let id = try await sync.create("notes", fields: ["title": "Groceries"])
/// for await notes in sync.observe(collection: "notes") { render(notes) }
/// try await sync.sync(.foreground)
/// ```
public actor SyncClient {
    /// The configuration in force.
    public let configuration: SyncConfiguration
    let store: LocalStore
    let transport: any SyncTransport
    let clock: any Clock
    let hlc: HybridLogicalClock
    /// This installation's id: the server keeps its last processed sequence under it.
    public nonisolated let clientID: String
    let changeFeed = Broadcast<RecordChange>()
    let signals: CollectionSignals
    let outcomeFeed = Broadcast<OperationOutcome>()
    var runningCycle: Task<SyncReport, any Error>?

    /// Opens (creating if needed) the local store at `path` (`:memory:` for a store that lives as
    /// long as the client). Open one client per file at a time: the oplog's sequence counter lives
    /// in the client.
    /// - Parameters:
    ///   - transport: how to reach the server.
    ///   - clock: wall time for the hybrid logical clock, and the time of poke back-off.
    /// - Throws: `SyncError.storage` when the store cannot be opened.
    public init(
        path: String, configuration: SyncConfiguration = .init(), transport: any SyncTransport,
        clock: any Clock = SystemClock()
    ) throws(SyncError) {
        do {
            store = try LocalStore(path: path)
            (clientID, hlc) = try store.pool.transaction { db in
                let id = try LocalStore.meta(db, "client_id") ?? Identifier.uuid()
                try LocalStore.setMeta(db, "client_id", id)
                // The latest stamp this client made or saw: later stamps sort after it even if
                // the wall clock went back while the app was not running.
                let last = try db.query("SELECT max(hlc) FROM records") { $0.text(0) }.first?.flatMap(HLCTimestamp.init)
                return (id, HybridLogicalClock(node: String(id.prefix(8)), clock: clock, after: last))
            }
        } catch {
            throw SyncError(.storage, "the local store could not be opened: \(error)")
        }
        self.configuration = configuration
        signals = CollectionSignals(wakeInterval: configuration.observerWakeInterval)
        self.transport = transport
        self.clock = clock
    }

    // MARK: reading

    /// The live records of `collection`, local edits applied, by id.
    /// - Throws: `SyncError.storage`.
    public func records(_ collection: String) throws(SyncError) -> [LocalRecord] {
        try storage { try store.records(collection: collection) }
    }

    /// One record, or `nil` when it does not exist or is deleted.
    /// - Throws: `SyncError.storage`.
    public func record(_ collection: String, id: String) throws(SyncError) -> LocalRecord? {
        try storage { try store.pool.read { db in try LocalStore.localRecord(db, collection, id) } }
    }

    /// Every change to the local store (local writes, pulls, resolutions), as it commits; a
    /// subscriber more than 10,000 changes behind loses the oldest (use `observe` for state).
    public nonisolated func changes() -> AsyncStream<RecordChange> { changeFeed.subscribe() }

    /// What became of each pushed operation (bounded like `changes()`).
    public nonisolated func outcomes() -> AsyncStream<OperationOutcome> { outcomeFeed.subscribe() }

    /// The records of `collection` (by id) now, and again after commits that touch the
    /// collection, coalesced: GRDB's `ValueObservation` is the model. The records are read when
    /// the consumer asks for the next value, covering every commit since the last one it took,
    /// and after a burst only the records that changed are read again. A parked consumer is
    /// woken at most once per `SyncConfiguration.observerWakeInterval` (2 ms by default).
    public nonisolated func observe(collection: String) -> AsyncStream<[LocalRecord]> {
        let (signals, take) = signals.subscribe(collection)
        let reader = CollectionReader(collection: collection, store: store, signals: signals, take: take)
        return AsyncStream(unfolding: { await reader.next() })
    }

    /// Operations the server refused for good, oldest first.
    /// - Throws: `SyncError.storage`.
    public func deadLetters() throws(SyncError) -> [DeadLetter] { try storage { try store.deadLetters() } }

    /// How many operations wait to be pushed.
    /// - Throws: `SyncError.storage`.
    public func pendingOperationCount() throws(SyncError) -> Int { try storage { try store.pendingOperationCount() } }

    /// `RecordSetChecksum` of the server copies this client holds: equal to the server's
    /// snapshot checksum once the client is in sync.
    /// - Throws: `SyncError.storage`.
    public func checksum() throws(SyncError) -> String { try storage { try store.baseChecksum() } }

    // MARK: writing

    /// Creates a record with a new UUID, locally; it reaches the server at the next cycle.
    /// - Returns: the new id.
    /// - Throws: `SyncError.storage`.
    @discardableResult
    public func create(_ collection: String, fields: [String: JSONValue]) throws(SyncError) -> String {
        let id = Identifier.uuid()
        try set(collection, id: id, fields: fields)
        return id
    }

    /// Sets fields of a record (creating it if absent); a `null` value removes a field.
    /// - Throws: `SyncError.storage`.
    public func set(_ collection: String, id: String, fields: [String: JSONValue]) throws(SyncError) {
        try write(collection, id: id, fields: fields)
    }

    /// Deletes a record: a tombstone locally and on the server, never a silent local removal.
    /// - Throws: `SyncError.invalidArgument` when the record does not exist; `.storage`.
    public func delete(_ collection: String, id: String) throws(SyncError) {
        try write(collection, id: id, fields: nil)
    }

    /// Applies `writes` in order in one transaction, each with its oplog entry: all or none, one
    /// commit, and observers read the records once for the whole batch. Much cheaper per record
    /// than one `set` each when many records change at once (an import, a bulk edit).
    /// - Throws: `SyncError.invalidArgument` when a delete names no record (nothing is written);
    ///   `.storage`.
    public func write(_ writes: [LocalWrite]) throws(SyncError) {
        guard !writes.isEmpty else { return }
        let states = try storage {
            try store.pool.transaction { db in
                try writes.map { write in
                    guard let state = try apply(db, write.collection, id: write.id, fields: write.fields) else {
                        // Thrown inside the transaction, so the writes before it roll back too.
                        throw SyncError(.invalidArgument, "no record \(write.collection)/\(write.id) to delete")
                    }
                    return state
                }
            }
        }
        publish(
            writes.map {
                RecordChange(collection: $0.collection, id: $0.id, deleted: $0.fields == nil, origin: .local)
            },
            states: states)
    }

    /// Writes locally and appends the operation to the oplog, in one transaction: a batch of one.
    private func write(_ collection: String, id: String, fields: [String: JSONValue]?) throws(SyncError) {
        try write([
            fields.map { .set(collection: collection, id: id, fields: $0) } ?? .delete(collection: collection, id: id)
        ])
    }

    /// Sets `fields` (or deletes, for `nil`) on the record and appends the operation, inside the
    /// caller's transaction.
    /// - Returns: the record as the app now sees it (`.some(nil)` once deleted), or `nil` for a
    ///   delete of a record that does not exist.
    private func apply(
        _ db: Database, _ collection: String, id: String, fields: [String: JSONValue]?
    ) throws -> LocalRecord?? {
        let stamp = hlc.now().description
        var row =
            try LocalStore.row(db, collection, id)
            ?? LocalStore.Row(fields: [:], deleted: false, version: 0, base: nil, hlc: stamp)
        if fields == nil && (row.deleted || (row.version == 0 && row.base == nil && row.fields.isEmpty)) {
            return nil
        }
        // A set on a record with no fields yet (new, or deleted) that removes none leaves the
        // record's fields equal to the operation's: they are encoded once for both rows.
        var encoded: String?
        if let fields {
            if row.deleted { row.fields = [:] }
            if row.fields.isEmpty && !fields.values.contains(where: \.isNull) {
                encoded = JSONWriter.string(.object(fields))
            }
            for (name, value) in fields {
                // Spelled out: `value.isNull ? nil : value` is a `JSONValue`, so its `nil` would
                // store `null` instead of removing the field.
                if value.isNull {
                    row.fields.removeValue(forKey: name)
                } else {
                    row.fields[name] = value
                }
            }
            row.deleted = false
        } else {
            row.fields = [:]
            row.deleted = true
        }
        row.hlc = stamp
        try LocalStore.save(db, collection, id, row, encodedFields: encoded)
        try store.append(
            db, collection: collection, id: id, fields: fields, baseVersion: row.version, hlc: stamp,
            encodedFields: encoded)
        // Its operation was just appended, so it is pending.
        let state =
            row.deleted
            ? nil
            : LocalRecord(collection: collection, id: id, fields: row.fields, version: row.version, isPending: true)
        return .some(state)
    }

    // MARK: dead letters

    /// Forgets a quarantined operation.
    /// - Throws: `SyncError.invalidArgument` when there is no such dead letter; `.storage`.
    public func dropDeadLetter(_ opID: String) throws(SyncError) {
        let removed = try storage {
            try store.pool.write { db in
                try db.run("DELETE FROM dead_letters WHERE op_id = ?1", [.text(opID)])
                return db.changes
            }
        }
        guard removed > 0 else { throw SyncError(.invalidArgument, "no dead letter \(opID)") }
    }

    /// Retries a quarantined operation with edited fields (or its own, if `fields` is `nil`): a
    /// new operation at the end of the oplog.
    /// - Throws: `SyncError.invalidArgument` when there is no such dead letter; `.storage`.
    public func retryDeadLetter(_ opID: String, fields: [String: JSONValue]? = nil) throws(SyncError) {
        guard let letter = try deadLetters().first(where: { $0.opID == opID }) else {
            throw SyncError(.invalidArgument, "no dead letter \(opID)")
        }
        try dropDeadLetter(opID)
        if let edited = fields ?? letter.fields {
            try set(letter.collection, id: letter.recordID, fields: edited)
        } else {
            try delete(letter.collection, id: letter.recordID)
        }
    }

    /// Tells change subscribers and collection observers about committed changes.
    /// - Parameter states: for each change, the record as committed (`nil`: deleted), when the
    ///   caller knows it, so observers need not read it back.
    func publish(_ changes: [RecordChange], states: [LocalRecord?]? = nil) {
        changeFeed.send(changes)
        signals.send(changes, states: states)
    }

    func storage<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.storage, "the local store failed: \(error)")
        }
    }

    /// `storage` for the pool's async `read` and `write`, which leave the actor's thread free while
    /// SQLite works.
    func storage<T>(_ body: () async throws -> T) async throws(SyncError) -> T {
        do {
            return try await body()
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.storage, "the local store failed: \(error)")
        }
    }
}
