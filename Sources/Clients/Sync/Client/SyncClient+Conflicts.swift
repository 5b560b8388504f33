import CourierCore
import SyncWire

extension SyncClient {
    /// Resolves a conflict answer by the record type's policy, inside the push's transaction:
    /// every pending operation of the record is replaced by at most one new one that writes the
    /// resolved content over the server's current version.
    func resolveConflict(_ db: Database, _ operation: SyncOperation, current: SyncRecord?, ancestor: SyncRecord?) throws
        -> ([RecordChange], OperationOutcome)
    {
        let collection = operation.collection
        let id = operation.recordID
        let pending = try LocalStore.pendingOperations(db, collection, id)
        try LocalStore.retire(db, collection: collection, id: id)
        let row =
            try LocalStore.row(db, collection, id)
            ?? LocalStore.Row(fields: [:], deleted: true, version: 0, base: nil, hlc: operation.hlc)
        let localStamp = pending.map(\.1).max() ?? operation.hlc
        let local = RecordState(fields: row.fields, deleted: row.deleted, hlc: localStamp)
        let server =
            current.map { RecordState(fields: $0.fields, deleted: $0.deleted, hlc: $0.hlc) }
            ?? RecordState(fields: [:], deleted: true, hlc: "")
        let base = ancestor.map { RecordState(fields: $0.fields, deleted: $0.deleted, hlc: $0.hlc) } ?? row.base
        if let current, let stamp = HLCTimestamp(current.hlc) { hlc.receive(stamp) }
        let resolution = ConflictResolver.resolve(
            configuration.policy(for: collection), local: local, server: server, ancestor: base)
        var outcome = OperationOutcome(
            opID: operation.id, collection: collection, recordID: id, result: .conflict(resolution))
        var changes = [RecordChange(collection: collection, id: id, deleted: server.deleted, origin: .resolution)]
        switch resolution {
        case .acceptServer:
            try adoptServer(db, collection, id, current)
        case .overwrite(let fields, let deleted):
            try LocalStore.save(
                db, collection, id,
                LocalStore.Row(
                    fields: fields, deleted: deleted, version: current?.version ?? 0,
                    base: current == nil ? nil : server, hlc: localStamp))
            let patch: [String: JSONValue]? = deleted ? nil : Self.patch(from: server, to: fields)
            try store.append(
                db, collection: collection, id: id, fields: patch, baseVersion: current?.version ?? 0, hlc: localStamp)
            changes[0].deleted = deleted
        case .keepBoth:
            try adoptServer(db, collection, id, current)
            let copy = Identifier.uuid()
            try LocalStore.save(
                db, collection, copy,
                LocalStore.Row(fields: local.fields, deleted: false, version: 0, base: nil, hlc: localStamp))
            try store.append(
                db, collection: collection, id: copy, fields: local.fields, baseVersion: 0, hlc: localStamp)
            outcome.copyID = copy
            changes.append(RecordChange(collection: collection, id: copy, deleted: false, origin: .resolution))
        }
        return (changes, outcome)
    }

    private func adoptServer(_ db: Database, _ collection: String, _ id: String, _ current: SyncRecord?) throws {
        if let current {
            try LocalStore.adopt(db, current)
        } else {
            try db.run("DELETE FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)])
        }
    }

    /// The set operation that turns `server` into `fields`: changed values, and `null` for
    /// fields to remove (all of `fields` when the server's record is a tombstone).
    static func patch(from server: RecordState, to fields: [String: JSONValue]) -> [String: JSONValue] {
        if server.deleted { return fields }
        var patch: [String: JSONValue] = [:]
        for (name, value) in fields where server.fields[name] != value { patch[name] = value }
        for name in server.fields.keys where fields[name] == nil { patch[name] = .null }
        return patch
    }
}
