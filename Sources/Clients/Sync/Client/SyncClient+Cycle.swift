import CourierCore
import SyncWire

extension SyncClient {
    /// Runs one cycle: push pending operations in batches, resolve conflicts, quarantine
    /// rejected operations, then pull changes by cursor (or resync from a snapshot when the cursor
    /// is past the server's tombstone horizon). Each step commits locally before the next, so a
    /// cycle cut short by a kill or a lost connection resumes where it stopped. Cycles never
    /// overlap: a trigger during a cycle runs another one after it.
    /// - Returns: what the cycle did.
    /// - Throws: `SyncError` (`.transport` when the server is unreachable: retry later).
    @discardableResult
    public func sync(_ trigger: SyncTrigger = .explicit) async throws(SyncError) -> SyncReport {
        let previous = runningCycle
        let task = Task { () async throws -> SyncReport in
            _ = try? await previous?.value
            return try await self.cycle()
        }
        runningCycle = task
        do {
            return try await task.value
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.transport, "\(error)")
        }
    }

    /// The longest a server's `Retry-After` holds `watchPokes` back: a proxy's answer of hours
    /// would otherwise stop the client's sync for that long.
    public static let longestRetryAfter = Duration.seconds(300)

    /// Long-polls the server's poke route and runs a cycle whenever something changed, until the
    /// task is cancelled; failures back off with full jitter on the injected clock, and for at
    /// least the server's `Retry-After` when it gave one (up to `longestRetryAfter`).
    public func watchPokes() async {
        var attempt = 0
        let backoff = Backoff(base: .seconds(1), cap: .seconds(60))
        while !Task.isCancelled {
            do {
                let cursor = try await store.pool.read { db in try LocalStore.meta(db, "cursor") }
                if try await transport.poke(since: cursor, wait: configuration.pokeWait) {
                    try await sync(.poke)
                }
                attempt = 0
            } catch {
                attempt += 1
                var wait = backoff.delay(attempt: attempt)
                if let asked = (error as? SyncError)?.retryAfter, asked > wait {
                    wait = min(asked, Self.longestRetryAfter)
                }
                try? await clock.sleep(for: wait)
            }
        }
    }

    func cycle() async throws(SyncError) -> SyncReport {
        var report = SyncReport()
        try await pushPending(&report)
        try await pullChanges(&report)
        return report
    }

    private func pushPending(_ report: inout SyncReport) async throws(SyncError) {
        // A conflict resolved by overwriting queues a new operation; bound the rounds so two
        // clients racing on one record cannot keep a cycle alive for ever.
        for _ in 0..<1_000 {
            let batch = try storage { try store.nextBatch(limit: configuration.pushBatchSize) }
            if batch.isEmpty { return }
            let results = try await transport.push(clientID: clientID, operations: batch)
            let (changes, outcomes) = try await storage {
                try await store.pool.write { db in
                    var changes: [RecordChange] = []
                    var outcomes: [OperationOutcome] = []
                    for (operation, result) in zip(batch, results) where result.opID == operation.id {
                        let (change, outcome) = try self.acknowledge(db, operation, result.outcome)
                        changes += change
                        outcomes.append(outcome)
                    }
                    return (changes, outcomes)
                }
            }
            for outcome in outcomes {
                switch outcome.result {
                case .applied: report.applied += 1
                case .rejected: report.rejected += 1
                case .conflict: report.conflicts += 1
                }
            }
            publish(changes)
            outcomeFeed.send(outcomes)
        }
    }

    /// Applies the server's answer to one operation inside the push's local transaction.
    private nonisolated func acknowledge(_ db: Database, _ operation: SyncOperation, _ outcome: SyncOpResult.Outcome)
        throws
        -> ([RecordChange], OperationOutcome)
    {
        let collection = operation.collection
        let id = operation.recordID
        var result = OperationOutcome(
            opID: operation.id, collection: collection, recordID: id, result: .applied(version: 0))
        switch outcome {
        case .applied(let record):
            try LocalStore.retire(db, collection: collection, id: id, sequence: operation.sequence)
            // Later edits of the record were based on the version this operation replaced.
            try db.run(
                "UPDATE oplog SET base_version = ?1 WHERE collection = ?2 AND record_id = ?3 AND base_version = ?4",
                [.integer(record.version), .text(collection), .text(id), .integer(operation.baseVersion)])
            try rebase(db, record)
            result.result = .applied(version: record.version)
            return ([], result)
        case .rejected(let reason):
            try LocalStore.retire(db, collection: collection, id: id, sequence: operation.sequence)
            var fields: SQLValue = .null
            if case .set(let set) = operation.kind { fields = .text(JSONWriter.string(.object(set))) }
            try db.run(
                "INSERT OR REPLACE INTO dead_letters(op_id, collection, record_id, fields, reason) VALUES (?1, ?2, ?3, ?4, ?5)",
                [.text(operation.id), .text(collection), .text(id), fields, .text(reason)])
            result.result = .rejected(reason: reason)
            // Roll the optimistic state back to the server's copy unless later edits remain.
            guard try LocalStore.pendingCount(db, collection, id) == 0, let row = try LocalStore.row(db, collection, id)
            else { return ([], result) }
            if let base = row.base {
                try LocalStore.save(
                    db, collection, id,
                    LocalStore.Row(
                        fields: base.fields, deleted: base.deleted, version: row.version, base: base, hlc: row.hlc))
            } else {
                try db.run("DELETE FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)])
            }
            return (
                [RecordChange(collection: collection, id: id, deleted: row.base?.deleted ?? true, origin: .resolution)],
                result
            )
        case .conflict(let current, let ancestor):
            return try resolveConflict(db, operation, current: current, ancestor: ancestor)
        }
    }

    /// A server copy of a record arrived: fast-forward when nothing is pending, else keep the
    /// local edits and move only their base (the next push answers the conflict).
    nonisolated func rebase(_ db: Database, _ record: SyncRecord) throws {
        if let stamp = HLCTimestamp(record.hlc) { hlc.receive(stamp) }
        guard var row = try LocalStore.row(db, record.collection, record.id),
            try LocalStore.pendingCount(db, record.collection, record.id) > 0
        else {
            try LocalStore.adopt(db, record)
            return
        }
        row.version = record.version
        row.base = RecordState(fields: record.fields, deleted: record.deleted, hlc: record.hlc)
        try LocalStore.save(db, record.collection, record.id, row)
    }

    private func pullChanges(_ report: inout SyncReport) async throws(SyncError) {
        while true {
            let cursor = try await storage { try await store.pool.read { db in try LocalStore.meta(db, "cursor") } }
            let page: SyncPull
            do {
                page = try await transport.changes(since: cursor, limit: configuration.pullBatchSize)
            } catch {
                guard error.code == .mustRefetch else { throw error }
                try await refetch(&report)
                continue
            }
            let changes = try await storage {
                try await store.pool.write { db in
                    var changes: [RecordChange] = []
                    for record in page.records {
                        if let row = try LocalStore.row(db, record.collection, record.id), row.base != nil,
                            row.version >= record.version
                        {
                            continue
                        }
                        try self.rebase(db, record)
                        changes.append(
                            RecordChange(
                                collection: record.collection, id: record.id, deleted: record.deleted, origin: .remote))
                    }
                    // The cursor moves in the same transaction as the rows it covers.
                    try LocalStore.setMeta(db, "cursor", page.cursor)
                    return changes
                }
            }
            report.pulled += page.records.count
            publish(changes)
            if !page.hasMore { return }
        }
    }

    /// Replaces the server copies with a snapshot (the cursor was past the tombstone horizon),
    /// keeps pending local edits on top, and proves the result with the snapshot's checksum.
    private func refetch(_ report: inout SyncReport) async throws(SyncError) {
        let snapshot = try await transport.snapshot()
        let changes = try await storage {
            try await store.pool.write { db in
                var changes: [RecordChange] = []
                let present = Set(snapshot.records.map { [$0.collection, $0.id] })
                let local = try db.query("SELECT collection, id FROM records") { [$0.text(0) ?? "", $0.text(1) ?? ""] }
                for key in local where !present.contains(key) {
                    guard var row = try LocalStore.row(db, key[0], key[1]) else { continue }
                    if try LocalStore.pendingCount(db, key[0], key[1]) > 0 {
                        row.version = 0
                        row.base = nil
                        try LocalStore.save(db, key[0], key[1], row)
                    } else {
                        try db.run(
                            "DELETE FROM records WHERE collection = ?1 AND id = ?2", [.text(key[0]), .text(key[1])])
                        if !row.deleted {
                            changes.append(RecordChange(collection: key[0], id: key[1], deleted: true, origin: .remote))
                        }
                    }
                }
                for record in snapshot.records {
                    try self.rebase(db, record)
                    changes.append(
                        RecordChange(collection: record.collection, id: record.id, deleted: false, origin: .remote))
                }
                try LocalStore.setMeta(db, "cursor", snapshot.cursor)
                let checksum = try LocalStore.baseChecksum(db)
                guard checksum == snapshot.checksum else {
                    throw SyncError(
                        .checksumMismatch,
                        "after the resync the local set's checksum \(checksum) is not \(snapshot.checksum)")
                }
                return changes
            }
        }
        report.refetched = true
        report.pulled += snapshot.records.count
        publish(changes)
    }
}
