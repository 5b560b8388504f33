import CourierCore
import Sync
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ConflictPolicyTests {
    /// Both clients edit version 1 of one note offline; the phone edits one second later.
    /// The laptop pushes first, the phone second (a conflict), then both pull.
    @Test(arguments: [
        (ConflictPolicy.serverWins, ["title": "Laptop", "body": "x"] as [String: JSONValue], false),
        (.lastWriterWins, ["title": "a", "body": "Phone"], false),
        (.fieldMerge, ["title": "Laptop", "body": "Phone"], false),
        (.keepBoth, ["title": "Laptop", "body": "x"], true),
    ])
    func twoClientsEditingOneRecordOfflineConverge(
        policy: ConflictPolicy, expected: [String: JSONValue], keepsCopy: Bool
    ) async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (laptop, _) = try harness.client("laptop", policies: ["notes": policy])
        let (phone, _) = try harness.client("phone", policies: ["notes": policy])
        let id = try await laptop.create("notes", fields: ["title": "a", "body": "x"])
        try await laptop.sync()
        try await phone.sync()

        try await laptop.set("notes", id: id, fields: ["title": "Laptop"])
        harness.clock.advance(by: .seconds(1))
        try await phone.set("notes", id: id, fields: ["body": "Phone"])
        try await laptop.sync()
        let report = try await phone.sync()
        #expect(report.conflicts == 1)
        try await laptop.sync()

        let onLaptop = try await laptop.records("notes")
        let onPhone = try await phone.records("notes")
        #expect(onLaptop == onPhone)
        #expect(onLaptop.first { $0.id == id }?.fields == expected)
        #expect(onLaptop.count == (keepsCopy ? 2 : 1))
        if keepsCopy {
            #expect(onLaptop.contains { $0.id != id && $0.fields == ["title": "a", "body": "Phone"] })
        }
        #expect(try await laptop.checksum() == harness.serverChecksum())
        #expect(try await phone.checksum() == harness.serverChecksum())
    }

    @Test func lastWriterWinsGoesByHybridClockNotByWhoPushedLast() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (laptop, _) = try harness.client("laptop", policies: ["notes": .lastWriterWins])
        let (phone, _) = try harness.client("phone", policies: ["notes": .lastWriterWins])
        let id = try await laptop.create("notes", fields: ["title": "a"])
        try await laptop.sync()
        try await phone.sync()
        try await phone.set("notes", id: id, fields: ["title": "earlier"])
        harness.clock.advance(by: .seconds(5))
        try await laptop.delete("notes", id: id)
        try await phone.sync()
        try await laptop.sync()  // conflict: the laptop's later delete wins
        try await phone.sync()
        #expect(try await laptop.record("notes", id: id) == nil)
        #expect(try await phone.record("notes", id: id) == nil)
    }

    @Test func fieldMergeTakesEachSidesChangeAndTheLaterClockForAFieldBothChanged() {
        let ancestor = RecordState(fields: ["a": 1, "b": 1, "c": 1], deleted: false, hlc: "")
        let local = RecordState(
            fields: ["a": 2, "b": 1, "c": 3], deleted: false, hlc: "000000000000002-0000000000-l")
        let server = RecordState(
            fields: ["a": 1, "b": 2, "c": 4, "d": 1], deleted: false, hlc: "000000000000001-0000000000-s")
        let resolution = ConflictResolver.resolve(.fieldMerge, local: local, server: server, ancestor: ancestor)
        #expect(resolution == .overwrite(fields: ["a": 2, "b": 2, "c": 3, "d": 1], deleted: false))
    }

    @Test func keepBothNeverDropsALocalEditForAServerDelete() {
        let local = RecordState(fields: ["a": 1], deleted: false, hlc: "")
        let server = RecordState(fields: [:], deleted: true, hlc: "")
        #expect(
            ConflictResolver.resolve(.keepBoth, local: local, server: server, ancestor: nil)
                == .overwrite(fields: ["a": 1], deleted: false))
    }
}
