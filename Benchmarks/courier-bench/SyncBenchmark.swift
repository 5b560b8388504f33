import CourierCore
import CourierHTTP
import Foundation
import Sync
import SyncServer
import SyncWire

/// `courier-bench sync`: local writes with the oplog and an observer beside raw SQLite writing the
/// same rows; push and pull rates on loopback beside the server store applying the same operations
/// in process; time for 10,000 records to reach a second client.
struct SyncBenchmark {
    let runs: Int
    let records: Int

    func run() throws {
        print("== sync: \(records) records, median of \(runs) runs ==")
        var local: [Double] = []
        var raw: [Double] = []
        var localP50: [Double] = []
        var unobserved: [Double] = []
        var rawP50: [Double] = []
        var sqlAlone: [Double] = []
        var pushed: [Double] = []
        var storePush: [Double] = []
        var pulled: [Double] = []
        var storePull: [Double] = []
        var converge: [Double] = []
        var ceiling: [Double] = []
        var batchedObserved: [Double] = []
        var batchedUnobserved: [Double] = []
        var rawBatched: [Double] = []
        for _ in 0..<runs {
            let directory = NSTemporaryDirectory() + "courier-bench-sync-" + Identifier.uuid()
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let writes = try localWrites(directory, observed: true)
            local.append(writes.ours)
            localP50.append(writes.oursP50)
            unobserved.append(try localWrites(directory, observed: false).ours)
            let bare = try rawWrites(directory)
            raw.append(bare.rate)
            rawP50.append(bare.p50)
            sqlAlone.append(try localWriteSQL(directory))
            batchedObserved.append(try batchedWrites(directory, observed: true))
            batchedUnobserved.append(try batchedWrites(directory, observed: false))
            rawBatched.append(try rawWrites(directory, perTransaction: Self.batch).rate)
            let network = try loopback(directory)
            pushed.append(network.pushRate)
            pulled.append(network.pullRate)
            converge.append(network.convergeMilliseconds)
            let inProcess = try storeOnly(directory)
            storePush.append(inProcess.pushRate)
            storePull.append(inProcess.pullRate)
            ceiling.append(inProcess.milliseconds)
        }
        print(line("local write + oplog, observed", median(local), "/s", median(raw), "raw SQLite insert, txn per row"))
        print(line("local write + oplog, unobserved", median(unobserved), "/s", median(raw), "raw SQLite insert"))
        print(line("local write p50 ns", median(localP50), "ns", median(rawP50), "raw SQLite insert p50"))
        print(
            line(
                "local write + oplog, unobserved", median(unobserved), "/s", median(sqlAlone),
                "its three statements by hand, txn per row"))
        print(
            line(
                "local writes in batches of \(Self.batch), observed", median(batchedObserved), "/s", median(rawBatched),
                "raw SQLite insert, \(Self.batch) rows per txn"))
        print(
            line(
                "local writes in batches of \(Self.batch), unobserved", median(batchedUnobserved), "/s",
                median(rawBatched), "raw SQLite insert, \(Self.batch) rows per txn"))
        print(line("push ops/s on loopback", median(pushed), "/s", median(storePush), "SyncStore.push in process"))
        print(
            line("pull records/s on loopback", median(pulled), "/s", median(storePull), "SyncStore.changes in process"))
        print(
            line(
                "converge \(records) records, 2 clients", median(converge), "ms", median(ceiling),
                "the same push + pull in process"))
        print(
            String(
                format: "local write with oplog / raw write = %.2f× unobserved, %.2f× observed (goal ≥ 0.5×)",
                median(unobserved) / median(raw), median(local) / median(raw)))
        print(
            String(
                format: "batched local writes with oplog / batched raw writes = %.2f× unobserved, %.2f× observed",
                median(batchedUnobserved) / median(rawBatched), median(batchedObserved) / median(rawBatched)))
    }

    /// Rows per transaction in the batched figures.
    static let batch = 100

    /// `SyncClient.write` with `batch` records each, with or without an observer.
    private func batchedWrites(_ directory: String, observed: Bool) throws -> Double {
        let count = records
        let fields = (0..<count).map(self.fields)
        return try runBlocking { () -> Double in
            let client = try SyncClient(
                path: directory + "/batched-\(observed).sqlite", transport: Unreachable())
            let observer = Task {
                guard observed else { return }
                for await _ in client.observe(collection: "bench") {}
            }
            defer { observer.cancel() }
            let start = DispatchTime.now().uptimeNanoseconds
            for first in stride(from: 0, to: count, by: Self.batch) {
                try await client.write(
                    (first..<min(first + Self.batch, count)).map {
                        .set(collection: "bench", id: "r-\($0)", fields: fields[$0])
                    })
            }
            return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }

    private struct Unreachable: SyncTransport {
        func push(clientID: String, operations: [SyncOperation]) async throws(SyncError) -> [SyncOpResult] {
            throw SyncError(.transport, "offline")
        }
        func changes(since cursor: String?, limit: Int) async throws(SyncError) -> SyncPull {
            throw SyncError(.transport, "offline")
        }
        func snapshot() async throws(SyncError) -> SyncSnapshotAnswer { throw SyncError(.transport, "offline") }
        func poke(since cursor: String?, wait: Duration) async throws(SyncError) -> Bool {
            throw SyncError(.transport, "offline")
        }
    }

    private func fields(_ index: Int) -> [String: JSONValue] {
        [
            "title": .string("note \(index)"), "body": .string(String(repeating: "x", count: 64)),
            "n": .int(Int64(index)),
        ]
    }

    /// `set` on a client, with or without an observer that re-reads the collection after commits.
    private func localWrites(_ directory: String, observed: Bool) throws -> (ours: Double, oursP50: Double) {
        let count = records
        let fields = (0..<count).map(self.fields)
        return try runBlocking { () -> (Double, Double) in
            let client = try SyncClient(
                path: directory + "/local-\(observed).sqlite", transport: Unreachable())
            let observer = Task {
                guard observed else { return }
                for await _ in client.observe(collection: "bench") {}
            }
            defer { observer.cancel() }
            var each: [Double] = []
            each.reserveCapacity(count)
            let start = DispatchTime.now().uptimeNanoseconds
            for index in 0..<count {
                let begin = DispatchTime.now().uptimeNanoseconds
                try await client.set("bench", id: "r-\(index)", fields: fields[index])
                each.append(Double(DispatchTime.now().uptimeNanoseconds - begin))
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return (Double(count) / seconds, median(each))
        }
    }

    /// A local write's SQL alone, by hand on the client's own schema: read the record, write it,
    /// append its operation, one transaction per row (what `SyncClient.set` costs without Swift
    /// around it: the ceiling of the local-write figures).
    private func localWriteSQL(_ directory: String) throws -> Double {
        let path = directory + "/by-hand.sqlite"
        // The client makes the schema; the statements then run on a connection of their own.
        _ = try runBlocking { () -> Bool in
            _ = try SyncClient(path: path, transport: Unreachable())
            return true
        }
        var options = Database.Options()
        options.synchronous = "NORMAL"
        let db = try Database(path: path, options: options)
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<records {
            try db.transaction {
                let id = "r-\(index)"
                _ = try db.query(
                    "SELECT fields, deleted, version, base_fields, base_deleted, hlc FROM records WHERE collection = ?1 AND id = ?2",
                    [.text("bench"), .text(id)]
                ) { row in row.text(0) }
                let text = JSONWriter.string(.object(fields(index)))
                let hlc = "0001764816000000-0000-bench"
                try db.run(
                    """
                    INSERT OR REPLACE INTO records(collection, id, fields, deleted, version, base_fields, base_deleted, hlc)
                    VALUES ('bench', ?1, ?2, 0, 0, NULL, 0, ?3)
                    """, [.text(id), .text(text), .text(hlc)])
                try db.run(
                    """
                    INSERT INTO oplog(sequence, op_id, collection, record_id, fields, base_version, hlc)
                    VALUES (?1, ?2, 'bench', ?3, ?4, 0, ?5)
                    """, [.integer(Int64(index + 1)), .text(Identifier.uuid()), .text(id), .text(text), .text(hlc)])
            }
        }
        return Double(records) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The same rows into a plain table, `perTransaction` rows per transaction, same connection
    /// options; the p50 is per transaction.
    private func rawWrites(_ directory: String, perTransaction: Int = 1) throws -> (rate: Double, p50: Double) {
        var options = Database.Options()
        options.synchronous = "NORMAL"
        let db = try Database(path: directory + "/raw-\(perTransaction).sqlite", options: options)
        try db.execute(
            "CREATE TABLE rows(collection TEXT NOT NULL, id TEXT NOT NULL, fields TEXT NOT NULL, PRIMARY KEY(collection, id)) WITHOUT ROWID"
        )
        var each: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        for first in stride(from: 0, to: records, by: perTransaction) {
            let begin = DispatchTime.now().uptimeNanoseconds
            try db.transaction {
                for index in first..<min(first + perTransaction, records) {
                    let text = JSONWriter.string(.object(fields(index)))
                    try db.run(
                        "INSERT OR REPLACE INTO rows(collection, id, fields) VALUES ('bench', ?1, ?2)",
                        [.text("r-\(index)"), .text(text)])
                }
            }
            each.append(Double(DispatchTime.now().uptimeNanoseconds - begin))
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (Double(records) / seconds, median(each))
    }

    /// One client pushes `records` new records through the real server; a second pulls them.
    private func loopback(_ directory: String) throws -> (
        pushRate: Double, pullRate: Double, convergeMilliseconds: Double
    ) {
        var configuration = SyncServerConfiguration()
        configuration.tokens = ["bench-token": "bench"]
        let service = try SyncService(
            configuration: configuration, store: try SQLiteSyncStore(path: directory + "/server.sqlite"))
        var router = Router()
        service.mount(on: &router)
        var http = HTTPServerConfiguration()
        http.port = 0
        let server = HTTPServer(configuration: http, router: router)
        try server.start()
        defer { server.stop() }
        let count = records
        let fields = (0..<count).map(self.fields)
        let baseURL = server.baseURL
        return try runBlocking { () -> (Double, Double, Double) in
            let writer = try SyncClient(
                path: directory + "/writer.sqlite", transport: HTTPSyncTransport(baseURL: baseURL, token: "bench-token")
            )
            let reader = try SyncClient(
                path: directory + "/reader.sqlite", transport: HTTPSyncTransport(baseURL: baseURL, token: "bench-token")
            )
            for index in 0..<count { try await writer.set("bench", id: "r-\(index)", fields: fields[index]) }
            let start = DispatchTime.now().uptimeNanoseconds
            let pushReport = try await writer.sync()
            let pushedAt = DispatchTime.now().uptimeNanoseconds
            let pullReport = try await reader.sync()
            let end = DispatchTime.now().uptimeNanoseconds
            guard pushReport.applied == count, pullReport.pulled == count else {
                throw BenchError("pushed \(pushReport.applied) and pulled \(pullReport.pulled) of \(count)")
            }
            guard try await writer.checksum() == reader.checksum() else {
                throw BenchError("the two clients did not converge")
            }
            return (
                Double(count) / (Double(pushedAt - start) / 1e9), Double(count) / (Double(end - pushedAt) / 1e9),
                Double(end - start) / 1e6
            )
        }
    }

    /// The server store applying the same operations in batches of 200, then reading them back.
    private func storeOnly(_ directory: String) throws -> (pushRate: Double, pullRate: Double, milliseconds: Double) {
        let store = try SQLiteSyncStore(path: directory + "/store.sqlite")
        let operations = (0..<records).map { index in
            SyncOperation(
                id: Identifier.uuid(), sequence: Int64(index + 1), collection: "bench", recordID: "r-\(index)",
                kind: .set(fields(index)), baseVersion: 0, hlc: "")
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var offset = 0
        while offset < operations.count {
            let batch = Array(operations[offset..<min(offset + 200, operations.count)])
            _ = try store.push(owner: "bench", clientID: "c", operations: batch, now: 0) { _ in nil }
            offset += batch.count
        }
        let pushedAt = DispatchTime.now().uptimeNanoseconds
        var since: Int64 = 0
        var read = 0
        while true {
            let page = try store.changes(owner: "bench", since: since, limit: 500)
            read += page.records.count
            since = page.position
            if !page.hasMore { break }
        }
        let end = DispatchTime.now().uptimeNanoseconds
        guard read == records else { throw BenchError("read \(read) of \(records) changes") }
        return (
            Double(records) / (Double(pushedAt - start) / 1e9), Double(records) / (Double(end - pushedAt) / 1e9),
            Double(end - start) / 1e6
        )
    }
}
