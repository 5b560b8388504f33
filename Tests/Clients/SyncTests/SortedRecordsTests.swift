import CourierCore
import CourierTesting
@testable import Sync
import Testing

/// An observer's rows brought up to date a batch at a time (`[LocalRecord].apply`) stay what
/// reading the collection again would give: sorted by id in bytes, each record in its latest state.
@Suite
struct SortedRecordsTests {
    private func record(_ id: String, _ generation: Int = 0) -> LocalRecord {
        LocalRecord(collection: "notes", id: id, fields: ["g": .int(Int64(generation))], version: 0, isPending: true)
    }

    /// What SQLite's `ORDER BY id` returns for the records left.
    private func expected(_ model: [ExactText: LocalRecord]) -> [LocalRecord] {
        model.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// The ids as bytes (`==` on the records would call two spellings of one text equal).
    private func bytes(_ rows: [LocalRecord]) -> [[UInt8]] { rows.map { Array($0.id.utf8) } }

    @Test func aBatchReplacesRemovesAndInsertsInOneGo() {
        var rows = ["b", "d", "f", "h"].map { record($0) }
        rows.apply([
            "a": record("a"), "b": nil, "e": record("e"), "f": record("f", 1), "h": nil, "i": record("i"),
            "z": nil,
        ])
        #expect(rows == [record("a"), record("d"), record("e"), record("f", 1), record("i")])
        rows.apply(["a": nil, "d": nil, "e": nil, "f": nil, "i": nil])
        #expect(rows.isEmpty)
    }

    @Test func idsSortByTheirBytesAsSQLiteSortsThem() {
        var rows: [LocalRecord] = []
        rows.apply(["r-2": record("r-2"), "r-10": record("r-10"), "é": record("é"), "Z": record("Z")])
        rows.apply(["r-1": record("r-1"), "r-100": record("r-100"), "e": record("e")])
        #expect(rows.map(\.id) == ["Z", "e", "r-1", "r-10", "r-100", "r-2", "é"])
    }

    // Two orders of the same combining marks: equal to `==`, different bytes to SQLite.
    private static let acuteFirst = "e\u{301}\u{327}"
    private static let cedillaFirst = "e\u{327}\u{301}"

    @Test func canonicallyEquivalentIdsAreTwoRecordsAsInSQLite() {
        let (acute, cedilla) = (Self.acuteFirst, Self.cedillaFirst)
        var rows: [LocalRecord] = []
        rows.apply([ExactText(cedilla): record(cedilla), "f": record("f")])
        rows.place(record(acute), id: acute)
        #expect(bytes(rows) == [acute, cedilla, "f"].map { Array($0.utf8) })
        rows.apply([ExactText(acute): nil, "g": record("g")])
        #expect(bytes(rows) == [cedilla, "f", "g"].map { Array($0.utf8) })
        // Both in one burst: two changes, not one.
        rows.apply([ExactText(acute): record(acute, 1), ExactText(cedilla): record(cedilla, 1)])
        #expect(bytes(rows) == [acute, cedilla, "f", "g"].map { Array($0.utf8) })
        #expect(rows[0].fields["g"] == .int(1) && rows[1].fields["g"] == .int(1))
    }

    @Test func anObserverSeesBothSpellingsOfAnIdWrittenInOneBurst() async throws {
        let harness = try await SyncHarness()
        defer { harness.stop() }
        let (client, _) = try harness.client("alice")
        var results = client.observe(collection: "notes").makeAsyncIterator()
        #expect(await results.next() == [])
        try await client.write([
            .set(collection: "notes", id: Self.acuteFirst, fields: ["n": 1]),
            .set(collection: "notes", id: Self.cedillaFirst, fields: ["n": 2]),
        ])
        let rows = try #require(await results.next())
        #expect(bytes(rows) == [Self.acuteFirst, Self.cedillaFirst].map { Array($0.utf8) })
        #expect(rows.map { $0.fields["n"] } == [.int(1), .int(2)])
    }

    @Test(arguments: [UInt64(7), 2_026, 90_210])
    func randomBatchesMatchReadingTheCollectionAgain(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        // With pairs of ids that are two spellings of one text.
        let ids =
            (0..<240).map { index in ["r-\(index)", "\u{E9}-\(index)", "\(index)", "r-\(index)0"][index % 4] }
            + (0..<30).flatMap { ["\u{E9}\($0)", "e\u{301}\($0)"] }
        var model: [ExactText: LocalRecord] = [:]
        var rows: [LocalRecord] = []
        for round in 0..<400 {
            var batch: [ExactText: LocalRecord?] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let id = ids.randomElement(using: &random) ?? "r-0"
                batch[ExactText(id)] =
                    Int.random(in: 0..<4, using: &random) == 0 ? .some(nil) : .some(record(id, round))
            }
            for (id, state) in batch { model[id] = state }
            rows.apply(batch)
            let wanted = expected(model)
            #expect(rows == wanted && bytes(rows) == bytes(wanted), "round \(round)")
        }
    }
}
