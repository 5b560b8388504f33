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
    private func expected(_ model: [String: LocalRecord]) -> [LocalRecord] {
        model.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    @Test func aBatchReplacesRemovesAndInsertsInOneGo() {
        var rows = ["b", "d", "f", "h"].map { record($0) }
        rows.apply([
            "a": record("a"), "b": nil, "e": record("e"), "f": record("f", 1), "h": nil, "i": record("i"),
            "z": nil,
        ])
        #expect(rows == [record("a"), record("d"), record("e"), record("f", 1), record("i")])
    }

    @Test func idsSortByTheirBytesAsSQLiteSortsThem() {
        var rows: [LocalRecord] = []
        rows.apply(["r-2": record("r-2"), "r-10": record("r-10"), "é": record("é"), "Z": record("Z")])
        rows.apply(["r-1": record("r-1"), "r-100": record("r-100"), "e": record("e")])
        #expect(rows.map(\.id) == ["Z", "e", "r-1", "r-10", "r-100", "r-2", "é"])
    }

    @Test func canonicallyEquivalentIdsAreTwoRecordsAsInSQLite() {
        // Two orders of the same combining marks: equal to `==`, different bytes to SQLite.
        let acuteFirst = "e\u{301}\u{327}"
        let cedillaFirst = "e\u{327}\u{301}"
        var rows: [LocalRecord] = []
        rows.apply([cedillaFirst: record(cedillaFirst), "f": record("f")])
        rows.place(record(acuteFirst), id: acuteFirst)
        #expect(rows.map { Array($0.id.utf8) } == [acuteFirst, cedillaFirst, "f"].map { Array($0.utf8) })
        rows.apply([acuteFirst: nil, "g": record("g")])
        #expect(rows.map { Array($0.id.utf8) } == [cedillaFirst, "f", "g"].map { Array($0.utf8) })
    }

    @Test(arguments: [UInt64(7), 2_026, 90_210])
    func randomBatchesMatchReadingTheCollectionAgain(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let ids = (0..<300).map { index in
            ["r-\(index)", "\u{E9}-\(index)", "\(index)", "r-\(index)0"][index % 4]
        }
        var model: [String: LocalRecord] = [:]
        var rows: [LocalRecord] = []
        for round in 0..<400 {
            var batch: [String: LocalRecord?] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let id = ids.randomElement(using: &random) ?? "r-0"
                batch[id] = Int.random(in: 0..<4, using: &random) == 0 ? .some(nil) : .some(record(id, round))
            }
            for (id, state) in batch { model[id] = state }
            rows.apply(batch)
            #expect(rows == expected(model), "round \(round)")
        }
    }
}
