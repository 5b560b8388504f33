import CourierCore

/// A connection the sync tables are read and written through, on either engine: SQLite's
/// `Database` and PostgreSQL's `PostgresConnection`. The store's logic and SQL are written once
/// against it (`SyncConnection+Push.swift`, `SyncConnection+Feed.swift`); each store only opens
/// its engine's transactions around them.
protocol SyncConnection {
    /// The engine's row type.
    associatedtype ResultRow: DatabaseRow

    /// Runs a query and maps each row.
    func query<T>(_ statement: SyncStatement, _ arguments: [SQLValue], row: (ResultRow) throws -> T) throws -> [T]

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    func run(_ statement: SyncStatement, _ arguments: [SQLValue]) throws -> Int
}

/// One statement of the sync store, written once with PostgreSQL's `$1` parameters; SQLite
/// runs the same text with its `?1` spelling of them.
package struct SyncStatement: Sendable {
    /// The text for PostgreSQL.
    package let postgres: String
    /// The text for SQLite.
    package let sqlite: String

    init(_ text: String) {
        postgres = text
        sqlite = text.replacing(#/\$(?=[0-9])/#, with: "?")
    }
}

extension Database: SyncConnection {
    func query<T>(_ statement: SyncStatement, _ arguments: [SQLValue], row: (Row) throws -> T) throws -> [T] {
        try query(statement.sqlite, arguments, row: row)
    }

    func run(_ statement: SyncStatement, _ arguments: [SQLValue]) throws -> Int {
        try run(statement.sqlite, arguments)
        return changes
    }
}
