import CourierCore
import SyncWire

extension SQLConnection {
    /// `SyncStore.push`, inside the caller's write transaction.
    func push(
        owner: String, clientID: String, operations: [SyncOperation], now: Int64,
        validate: (SyncOperation) -> String?
    ) throws -> [SyncOpResult] {
        try run(SyncSQL.lockOwner, [.text(owner)])
        var lastSequence = try query(SyncSQL.lastSequence, [.text(owner), .text(clientID)]) { $0.int(0) }.first ?? 0
        var results: [SyncOpResult] = []
        for operation in operations {
            let stored = try query(SyncSQL.storedResult, [.text(owner), .text(operation.id)]) { $0.text(0) ?? "" }
            if let stored = stored.first {
                results.append(try SyncOpResult(json: try JSONParser.parse(stored)))
                continue
            }
            let result: SyncOpResult
            if operation.sequence <= lastSequence {
                // Processed so long ago that its answer is gone: the current record is the
                // best answer, and the client resolves against it.
                let current = try record(owner, operation.collection, operation.recordID)
                result = SyncOpResult(opID: operation.id, outcome: .conflict(current: current, ancestor: nil))
            } else if let reason = validate(operation) {
                result = SyncOpResult(opID: operation.id, outcome: .rejected(reason: reason))
            } else {
                result = try apply(operation, owner: owner, now: now)
            }
            results.append(result)
            lastSequence = max(lastSequence, operation.sequence)
            try run(
                SyncSQL.keepResult,
                [
                    .text(owner), .text(operation.id), .text(clientID), .integer(operation.sequence),
                    .text(JSONWriter.string(result.json)),
                ])
        }
        try run(SyncSQL.keepLastSequence, [.text(owner), .text(clientID), .integer(lastSequence)])
        try run(
            SyncSQL.forgetOldResults,
            [.text(owner), .text(clientID), .integer(lastSequence - SyncSQL.keptResultsPerClient)])
        return results
    }

    /// Applies one operation if the record is at its base version, or answers the conflict.
    private func apply(_ operation: SyncOperation, owner: String, now: Int64) throws -> SyncOpResult {
        let current = try record(owner, operation.collection, operation.recordID)
        guard (current?.version ?? 0) == operation.baseVersion else {
            let ancestor = try historic(owner, operation.collection, operation.recordID, version: operation.baseVersion)
            return SyncOpResult(opID: operation.id, outcome: .conflict(current: current, ancestor: ancestor))
        }
        let next = operation.applied(to: current)
        let position = try query(SyncSQL.takePosition, [.text(owner)]) { $0.int(0) }.first ?? 0
        let values: [SQLValue] = [
            .text(owner), .text(next.collection), .text(next.id), .integer(next.version),
            .text(JSONWriter.string(.object(next.fields))), .integer(next.deleted ? 1 : 0), .text(next.hlc),
        ]
        try run(SyncSQL.writeRecord, values + [.integer(position), .integer(now)])
        try run(SyncSQL.writeHistory, values + [.integer(now)])
        return SyncOpResult(opID: operation.id, outcome: .applied(next))
    }

    func record(_ owner: String, _ collection: String, _ id: String) throws -> SyncRecord? {
        try query(SyncSQL.record, [.text(owner), .text(collection), .text(id)]) { try SyncSQL.record($0) }.first
    }

    /// The record as it was at `version`, while its history is kept (the conflict's ancestor).
    func historic(_ owner: String, _ collection: String, _ id: String, version: Int64) throws -> SyncRecord? {
        guard version > 0 else { return nil }
        return try query(SyncSQL.historic, [.text(owner), .text(collection), .text(id), .integer(version)]) {
            try SyncSQL.record($0)
        }.first
    }
}

extension SyncOperation {
    /// The record this operation makes of `current` (at the operation's base version): a set
    /// merges its fields (a null removes one), a delete leaves a tombstone.
    func applied(to current: SyncRecord?) -> SyncRecord {
        var next = SyncRecord(
            collection: collection, id: recordID, version: baseVersion + 1,
            fields: current.map { $0.deleted ? [:] : $0.fields } ?? [:], hlc: hlc)
        switch kind {
        case .set(let fields):
            for (name, value) in fields {
                if value.isNull { next.fields[name] = nil } else { next.fields[name] = value }
            }
        case .delete:
            next.fields = [:]
            next.deleted = true
        }
        return next
    }
}
