import AnalyticsCollector
import CourierCore
import CourierPostgres
import Foundation

/// The PostgreSQL side of `courier-bench collector --database`: a clean slate before each run and
/// the raw ceiling the collector is compared with.
enum PostgresCollectorLeg {
    /// Drops the collector's tables and its migration records, so each run starts empty.
    static func reset(_ url: String) throws {
        try PostgresBenchDatabase.reset(
            url, scope: "collector", tables: ["events", "seen_messages", "projects", "courier_benchmark_events"])
    }

    /// Rows per second that PostgreSQL itself inserts with the same payloads in 500-row
    /// `INSERT … ON CONFLICT DO NOTHING` statements, one transaction each, for half of `seconds`.
    static func ceiling(_ url: String, seconds: Int) throws -> Double {
        let db = try PostgresConnection(url: url)
        try db.execute(
            """
            DROP TABLE IF EXISTS courier_benchmark_events;
            CREATE TABLE courier_benchmark_events(
                write_key text NOT NULL, message_id text NOT NULL, received_at bigint NOT NULL, payload text NOT NULL,
                PRIMARY KEY(write_key, message_id))
            """)
        let payload = BenchPayload.event(prefix: "p", request: 0, index: 0)
        let start = DispatchTime.now().uptimeNanoseconds
        var rows = 0
        while DispatchTime.now().uptimeNanoseconds - start < UInt64(seconds) * 1_000_000_000 / 2 {
            let batch: [JSONValue] = (0..<500).map { index in
                ["m": .string("p-\(rows + index)"), "r": .int(Int64(rows)), "p": .string(payload)]
            }
            try db.run(
                """
                INSERT INTO courier_benchmark_events(write_key, message_id, received_at, payload)
                SELECT 'bench', m, r, p FROM json_to_recordset($1::json) AS x(m text, r bigint, p text)
                ON CONFLICT DO NOTHING
                """, [.text(JSONWriter.string(.array(batch)))])
            rows += batch.count
        }
        let rate = Double(rows) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        try db.execute("DROP TABLE courier_benchmark_events")
        return rate
    }
}

/// A benchmark's clean slate on a PostgreSQL database it was given.
enum PostgresBenchDatabase {
    /// Drops `tables` and forgets the migrations of `scope`, so the next store starts empty.
    static func reset(_ url: String, scope: String, tables: [String]) throws {
        let db = try PostgresConnection(url: url)
        try db.execute(
            """
            DROP TABLE IF EXISTS \(tables.joined(separator: ", ")) CASCADE;
            DO $$ BEGIN
                IF to_regclass('courier_migrations') IS NOT NULL THEN
                    DELETE FROM courier_migrations WHERE scope = '\(scope)';
                END IF;
            END $$;
            """)
    }
}
