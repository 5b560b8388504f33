import CourierCore
import Testing

/// One statement text for both engines: `$n` parameters become SQLite's `?n`, nothing else.
struct SQLStatementTests {
    @Test(arguments: [
        ("SELECT a FROM t WHERE b = $1 AND c = $12", "SELECT a FROM t WHERE b = ?1 AND c = ?12"),
        ("DO $$ BEGIN END $$", "DO $$ BEGIN END $$"),
        ("SELECT 'cost: $' || x", "SELECT 'cost: $' || x"),
        ("SELECT $", "SELECT $"),
    ])
    func parametersAreSpelledForEachEngine(postgres: String, sqlite: String) {
        let statement = SQLStatement(postgres)
        #expect(statement.postgres == postgres)
        #expect(statement.sqlite == sqlite)
    }

    @Test func aRowLockIsWrittenOnceAndLeftOutForSQLite() {
        let plain = SQLStatement(lockingRows: "SELECT a FROM t WHERE b = $1 FOR UPDATE")
        #expect(plain.postgres == "SELECT a FROM t WHERE b = $1 FOR UPDATE")
        #expect(plain.sqlite == "SELECT a FROM t WHERE b = ?1")
        let skipping = SQLStatement(
            lockingRows: "DELETE FROM t WHERE id = (SELECT id FROM t WHERE b = $1 LIMIT 1 FOR UPDATE SKIP LOCKED)")
        #expect(skipping.sqlite == "DELETE FROM t WHERE id = (SELECT id FROM t WHERE b = ?1 LIMIT 1)")
    }
}
