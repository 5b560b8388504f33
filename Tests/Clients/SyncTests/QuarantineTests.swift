import CourierCore
import Sync
import Testing

@Suite(.timeLimit(.minutes(1)))
struct QuarantineTests {
    @Test func aPoisonOperationIsQuarantinedAndDoesNotBlockTheOthers() async throws {
        let harness = try await SyncHarness { configuration in
            configuration.validate = { operation in
                if case .set(let fields) = operation.kind, fields["title"] == "poison" {
                    return "titles may not be poison"
                }
                return nil
            }
        }
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        var outcomes = alice.outcomes().makeAsyncIterator()
        let first = try await alice.create("notes", fields: ["title": "one"])
        let poison = try await alice.create("notes", fields: ["title": "poison"])
        let last = try await alice.create("notes", fields: ["title": "three"])
        let report = try await alice.sync()
        #expect(report.applied == 2 && report.rejected == 1)
        #expect(try await alice.pendingOperationCount() == 0)
        #expect(try await alice.records("notes").map(\.id).sorted() == [first, last].sorted())
        let letters = try await alice.deadLetters()
        #expect(letters.map(\.recordID) == [poison])
        #expect(letters.first?.reason == "titles may not be poison")
        var rejected: OperationOutcome?
        for _ in 0..<3 {
            if let outcome = await outcomes.next(), case .rejected = outcome.result { rejected = outcome }
        }
        #expect(rejected?.recordID == poison)

        // The app edits and retries it.
        try await alice.retryDeadLetter(try #require(letters.first).opID, fields: ["title": "fixed"])
        let retry = try await alice.sync()
        #expect(retry.applied == 1)
        #expect(try await alice.deadLetters().isEmpty)
        #expect(try await alice.record("notes", id: poison)?.fields == ["title": "fixed"])
    }

    @Test func anOversizedOperationIsRejectedAndCanBeDropped() async throws {
        let harness = try await SyncHarness { $0.maximumOperationBytes = 64 }
        defer { harness.stop() }
        let (alice, _) = try harness.client("alice")
        let id = try await alice.create("notes", fields: ["body": .string(String(repeating: "x", count: 100))])
        let report = try await alice.sync()
        #expect(report.rejected == 1)
        #expect(try await alice.record("notes", id: id) == nil)
        let letter = try #require(try await alice.deadLetters().first)
        #expect(letter.reason.contains("over 64 bytes"))
        try await alice.dropDeadLetter(letter.opID)
        #expect(try await alice.deadLetters().isEmpty)
        await #expect(throws: SyncError.self) { try await alice.dropDeadLetter(letter.opID) }
    }
}
