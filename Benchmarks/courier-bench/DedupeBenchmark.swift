import AnalyticsCollector
import CourierCore
import Foundation

/// Candidates for the collector's 24 h dedupe memory on this disk, each storing the same 60,000
/// event rows with random `messageId`s in 100-row transactions, `synchronous=FULL` (an fsync per
/// commit), printed beside SQLite inserting the rows with no dedupe at all:
/// - a `seen_messages` B-tree upserted per event (the collector's former design);
/// - the same table split by hour of `receivedAt`, an old hour dropped whole;
/// - the collector's store as it is: an in-memory index over the events table, nothing written
///   per event beyond its row.
struct DedupeBenchmark {
    let runs: Int
    let rows = 60_000
    let transaction = 100

    func run() throws {
        var plain: [Double] = [], btree: [Double] = [], hourly: [Double] = [], indexed: [Double] = []
        var rebuild: [Double] = []
        for _ in 0..<runs {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-bench-dedupe-\(Identifier.uuid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let ids = (0..<rows).map { _ in Identifier.uuid() }
            plain.append(try sqlRate(directory.appendingPathComponent("plain.sqlite").path, ids: ids, seen: nil))
            btree.append(
                try sqlRate(directory.appendingPathComponent("btree.sqlite").path, ids: ids, seen: .oneTable))
            hourly.append(
                try sqlRate(directory.appendingPathComponent("hourly.sqlite").path, ids: ids, seen: .hourlyTables))
            indexed.append(try storeRate(directory.appendingPathComponent("store.sqlite").path, ids: ids))
            rebuild.append(try rebuildMilliseconds(directory.appendingPathComponent("store.sqlite").path))
        }
        let ceiling = median(plain)
        print(
            "== dedupe candidates: \(rows) rows, random messageIds, \(transaction)-row transactions, synchronous=FULL, median of \(runs) runs =="
        )
        print(line("plain insert, no dedupe", ceiling, "ev/s", ceiling, "itself"))
        print(line("seen_messages B-tree upsert", median(btree), "ev/s", ceiling, "plain insert"))
        print(line("hourly seen tables", median(hourly), "ev/s", ceiling, "plain insert"))
        print(line("in-memory index over events", median(indexed), "ev/s", ceiling, "plain insert (goal ≥ 0.80×)"))
        print(String(format: "index rebuilt at start from %d events in %.1f ms", rows, median(rebuild)))
    }

    private enum SeenTable { case oneTable, hourlyTables }

    private func sqlRate(_ path: String, ids: [String], seen: SeenTable?) throws -> Double {
        let db = try Database(path: path)
        try SQLiteEventStore.createBenchmarkTable(db)
        let payload = Array(BenchPayload.event(prefix: "d", request: 0, index: 0).utf8)
        let insert = try db.cachedStatement(
            "INSERT INTO events(write_key, message_id, type, received_at, payload) VALUES (?1, ?2, 'track', ?3, ?4)")
        let start = DispatchTime.now().uptimeNanoseconds
        for first in stride(from: 0, to: ids.count, by: transaction) {
            // A new hour every 20,000 rows, so the hourly candidate creates and fills tables as it would.
            let hour = first / 20_000
            let table = seen == .hourlyTables ? "seen_\(hour)" : "seen_messages"
            try db.transaction {
                if seen != nil {
                    try db.execute(
                        "CREATE TABLE IF NOT EXISTS \(table)(write_key TEXT NOT NULL, message_id TEXT NOT NULL, "
                            + "seen_at INTEGER NOT NULL, PRIMARY KEY(write_key, message_id)) WITHOUT ROWID")
                }
                let remember = try seen.map { _ in
                    try db.cachedStatement(
                        "INSERT INTO \(table)(write_key, message_id, seen_at) VALUES ('bench', ?1, ?2) "
                            + "ON CONFLICT(write_key, message_id) DO NOTHING")
                }
                for id in ids[first..<min(ids.count, first + transaction)] {
                    if let remember {
                        remember.reset()
                        try remember.bind(id, at: 1)
                        try remember.bind(Int64(hour), at: 2)
                        try remember.step()
                        guard db.changes == 1 else { continue }
                    }
                    insert.reset()
                    try insert.bind("bench", at: 1)
                    try insert.bind(id, at: 2)
                    try insert.bind(Int64(hour), at: 3)
                    try insert.bind(utf8Text: payload, at: 4)
                    try insert.step()
                }
            }
        }
        return Double(ids.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Opens the store again (a restart) and times the scan that refills its index.
    private func rebuildMilliseconds(_ path: String) throws -> Double {
        let store = try SQLiteEventStore(path: path)
        let start = DispatchTime.now().uptimeNanoseconds
        try store.loadDedupeIndex(since: 0)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    private func storeRate(_ path: String, ids: [String]) throws -> Double {
        let store = try SQLiteEventStore(path: path)
        try store.registerProject(writeKey: "bench")
        let payload = Array(BenchPayload.event(prefix: "d", request: 0, index: 0).utf8)
        // Built before the clock starts, as the SQL candidates bind theirs inside it.
        let batches = stride(from: 0, to: ids.count, by: transaction).map { first in
            ids[first..<min(ids.count, first + transaction)].map { id in
                PreparedMessage(
                    writeKey: "bench", messageId: id, type: "track", receivedAt: Int64(first / 20_000),
                    payload: payload)
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var stored = 0
        for batch in batches {
            stored += try store.commit([batch], dedupeCutoff: 0).reduce(0) { $0 + $1.stored }
        }
        let rate = Double(ids.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        guard stored == ids.count else { throw BenchError("stored \(stored) of \(ids.count) distinct messages") }
        return rate
    }
}
