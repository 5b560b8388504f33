import CourierCore
import CourierPostgres

/// The volume and refusal aggregates on PostgreSQL, so that every instance of the collector
/// reports the same: each instance counts into its own `VolumeLedger` and `RejectionLog` as
/// before (no round trip on ingest), and `flush` moves what they hold to the tables, every
/// second and before each read. Another instance's counts show within a second of that.
///
/// Minutes are kept for a day (hours are their sums), refusal reasons `RejectionLog.keep` per
/// project; rows are written in key order, so two instances flushing at once take their row
/// locks in one order.
final class SharedObservations: Sendable {
    private let pool: PostgresPool

    init(pool: PostgresPool) { self.pool = pool }

    /// Moves `volume`'s and `rejections`' contents to the tables, in one transaction; on failure
    /// they are put back for the next flush.
    /// - Throws: the engine's error.
    func flush(volume: VolumeLedger, rejections: RejectionLog, atMilliseconds now: Int64) throws {
        let counted = volume.drain()
        let refused = rejections.drain()
        guard !counted.isEmpty || !refused.isEmpty else { return }
        do {
            try pool.write { db in
                try Self.write(counted, now: now, in: db)
                try Self.write(refused, keep: rejections.keep, in: db)
            }
        } catch {
            volume.restore(counted)
            rejections.restore(refused)
            throw error
        }
    }

    private static func write(_ counted: [String: [String: [Int64: Int]]], now: Int64, in db: PostgresConnection)
        throws
    {
        var rows: [(String, String, Int64, Int)] = []
        for (writeKey, types) in counted {
            for (type, minutes) in types {
                for (minute, count) in minutes { rows.append((writeKey, type, minute, count)) }
            }
        }
        rows.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        let json = JSONValue.array(
            rows.map { ["w": .string($0.0), "t": .string($0.1), "m": .int($0.2), "c": .int(Int64($0.3))] })
        try db.run(
            """
            INSERT INTO collector_volume(write_key, type, minute, count)
            SELECT w, t, m, c FROM json_to_recordset($1::json) AS x(w text, t text, m bigint, c bigint)
            ON CONFLICT(write_key, type, minute) DO UPDATE SET count = collector_volume.count + excluded.count
            """, [.text(JSONWriter.string(json))])
        try db.run("DELETE FROM collector_volume WHERE minute <= $1", [.integer(now / 60_000 - 24 * 60)])
    }

    private static func write(_ refused: [String: RejectionLog.Project], keep: Int, in db: PostgresConnection) throws {
        guard !refused.isEmpty else { return }
        let projects = refused.sorted { $0.key < $1.key }
        var counts: [JSONValue] = []
        var reasons: [JSONValue] = []
        for (writeKey, project) in projects {
            for (code, count) in project.counts.sorted(by: { $0.key < $1.key }) {
                counts.append(["w": .string(writeKey), "k": .string(code), "c": .int(Int64(count))])
            }
            for entry in project.recent {
                reasons.append([
                    "i": .int(Int64(reasons.count)), "w": .string(writeKey), "a": .int(entry.atMilliseconds),
                    "k": .string(entry.code), "m": .string(entry.message), "c": .int(Int64(entry.count)),
                ])
            }
        }
        try db.run(
            """
            INSERT INTO collector_rejection_counts(write_key, code, count)
            SELECT w, k, c FROM json_to_recordset($1::json) AS x(w text, k text, c bigint)
            ON CONFLICT(write_key, code) DO UPDATE SET count = collector_rejection_counts.count + excluded.count
            """, [.text(JSONWriter.string(.array(counts)))])
        try db.run(
            """
            INSERT INTO collector_rejections(write_key, at, code, message, count)
            SELECT w, a, k, m, c FROM json_to_recordset($1::json) AS x(i bigint, w text, a bigint, k text, m text, c bigint)
            ORDER BY i
            """, [.text(JSONWriter.string(.array(reasons)))])
        try db.run(
            """
            DELETE FROM collector_rejections WHERE id IN (
                SELECT id FROM (
                    SELECT id, row_number() OVER (PARTITION BY write_key ORDER BY id DESC) AS n
                    FROM collector_rejections
                    WHERE write_key IN (SELECT value FROM json_array_elements_text($1::json))) AS ranked
                WHERE n > $2)
            """, [.text(JSONWriter.string(.array(projects.map { .string($0.key) }))), .integer(Int64(keep))])
    }

    /// `writeKey`'s volume at `milliseconds`, as every instance has flushed it.
    /// - Throws: the engine's error.
    func volume(writeKey: String, atMilliseconds milliseconds: Int64) throws -> ProjectVolume {
        let minute = milliseconds / 60_000
        let rows = try pool.withConnection { db in
            try db.query(
                "SELECT type, minute, count FROM collector_volume WHERE write_key = $1 AND minute > $2",
                [.text(writeKey), .integer(minute - 24 * 60)]
            ) { row in (type: row.text(0) ?? "", minute: row.int(1), count: Int(row.int(2))) }
        }
        var types: [String: VolumeLedger.Counts] = [:]
        for row in rows {
            types[row.type, default: .init()].minutes[row.minute, default: 0] += row.count
            types[row.type, default: .init()].hours[row.minute / 60, default: 0] += row.count
        }
        return VolumeLedger.volume(types, atMilliseconds: milliseconds)
    }

    /// `writeKey`'s refusal counts and last `keep` reasons, as every instance has flushed them.
    /// - Throws: the engine's error.
    func rejections(writeKey: String, keep: Int) throws -> RejectionLog.Project {
        try pool.withConnection { db in
            var project = RejectionLog.Project()
            for (code, count) in try db.query(
                "SELECT code, count FROM collector_rejection_counts WHERE write_key = $1", [.text(writeKey)],
                row: { row in (row.text(0) ?? "", Int(row.int(1))) })
            {
                project.counts[code] = count
            }
            project.recent = try db.query(
                """
                SELECT at, code, message, count FROM collector_rejections WHERE write_key = $1
                ORDER BY id DESC LIMIT $2
                """, [.text(writeKey), .integer(Int64(keep))]
            ) { row in
                RejectionLog.Entry(
                    atMilliseconds: row.int(0), code: row.text(1) ?? "", message: row.text(2) ?? "",
                    count: Int(row.int(3)))
            }.reversed()
            return project
        }
    }
}
