import CourierCore
import Sync
import SyncWire
import Testing

/// The pull's apply rule: absent → insert, nothing pending → fast-forward, edits pending → keep
/// them and move only their base, so the next push meets (and resolves) the conflict.
@Suite(.timeLimit(.minutes(1)))
struct ApplyRuleTests {
    @Test func aPullOverPendingEditsKeepsThemAndTheNextPushResolvesTheConflict() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (laptop, _) = try harness.client("laptop", policies: ["notes": .fieldMerge])
        let (phone, phoneTransport) = try harness.client("phone", policies: ["notes": .fieldMerge])
        let id = try await laptop.create("notes", fields: ["title": "a", "body": "x"])
        try await laptop.sync()
        try await phone.sync()
        try await laptop.set("notes", id: id, fields: ["title": "Laptop"])
        try await laptop.sync()

        // The phone's edit lands after its push and before its pull.
        phoneTransport.beforeNextPull { try? await phone.set("notes", id: id, fields: ["body": "Phone"]) }
        let first = try await phone.sync()
        #expect(first.applied == 0 && first.pulled == 1)
        let pending = try #require(try await phone.record("notes", id: id))
        #expect(pending.isPending)
        #expect(pending.fields == ["title": "a", "body": "Phone"])
        #expect(pending.version == 2)  // the base moved to the server's version

        let second = try await phone.sync()
        #expect(second.conflicts == 1)
        try await laptop.sync()
        #expect(try await phone.record("notes", id: id)?.fields == ["title": "Laptop", "body": "Phone"])
        #expect(try await laptop.record("notes", id: id)?.fields == ["title": "Laptop", "body": "Phone"])
    }

    @Test func deletingARecordThatDoesNotExistIsAClearError() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (client, _) = try harness.client("laptop")
        await #expect(throws: SyncError.self) { try await client.delete("notes", id: "missing") }
        #expect(try await client.pendingOperationCount() == 0)
    }

    @Test(arguments: [
        (
            #"{"sequence": 1, "collection": "c", "recordID": "r", "op": "delete", "baseVersion": 0}"#,
            "an operation needs an id"
        ),
        (
            #"{"id": "x", "sequence": 0, "collection": "c", "recordID": "r", "op": "delete", "baseVersion": 0}"#,
            "operation x needs a positive sequence"
        ),
        (
            #"{"id": "x", "sequence": 1, "collection": "c", "recordID": "r", "op": "set", "baseVersion": 0}"#,
            "set operation x needs a fields object"
        ),
        (
            #"{"id": "x", "sequence": 1, "collection": "c", "recordID": "r", "op": "bump", "baseVersion": 0}"#,
            #"operation x: op is "set" or "delete""#
        ),
        (
            #"{"id": "x", "sequence": 1, "collection": "c", "recordID": "r", "op": "delete", "baseVersion": -1}"#,
            "operation x needs a baseVersion ≥ 0"
        ),
    ])
    func malformedOperationsAreRefusedWithTheReason(json: String, message: String) throws {
        #expect(throws: SyncWireError(message)) { try SyncOperation(json: try JSONParser.parse(json)) }
    }
}
