import Foundation

/// One statement written once for both engines, with PostgreSQL's `$1`, `$2`… parameters;
/// SQLite runs the same text with its `?1` spelling of them. Stores whose tables are named alike
/// on both engines keep their SQL in one place this way.
public struct SQLStatement: Sendable {
    /// The text for PostgreSQL.
    public let postgres: String
    /// The text for SQLite.
    public let sqlite: String

    /// A statement from its PostgreSQL text (a `$` before a digit is a parameter; the text must
    /// hold no other `$` followed by a digit).
    public init(_ text: String) {
        postgres = text
        var sqlite = ""
        sqlite.reserveCapacity(text.utf8.count)
        var previous: Character?
        for character in text {
            if let dollar = previous, dollar == "$" {
                sqlite.append(character.isNumber ? "?" : "$")
            }
            if character != "$" { sqlite.append(character) }
            previous = character
        }
        if previous == "$" { sqlite.append("$") }
        self.sqlite = sqlite
    }

    /// A statement whose PostgreSQL text locks rows (`FOR UPDATE`, optionally `SKIP LOCKED`,
    /// in the statement or a subquery of it), written once: SQLite, whose writers take turns,
    /// has no syntax for a row lock, so its text is the same without those clauses.
    public init(lockingRows text: String) {
        var unlocked = text
        for clause in [" FOR UPDATE SKIP LOCKED", " FOR UPDATE"] {
            unlocked = unlocked.replacingOccurrences(of: clause, with: "")
        }
        self.init(postgres: text, sqlite: unlocked)
    }

    /// A statement whose text differs between the engines in a way `init(lockingRows:)` does
    /// not cover.
    public init(postgres: String, sqlite: String) {
        self.postgres = postgres
        self.sqlite = SQLStatement(sqlite).sqlite
    }
}

/// A connection that runs `SQLStatement`s, on either engine (SQLite's `Database`,
/// PostgreSQL's `PostgresConnection`): store logic written once against it runs on both, and
/// each store only opens its engine's transactions around it.
public protocol SQLConnection {
    /// The engine's row type.
    associatedtype ResultRow: DatabaseRow

    /// Runs a query and maps each row.
    /// - Throws: the engine's error, or what `row` throws.
    func query<T>(_ statement: SQLStatement, _ arguments: [SQLValue], row: (ResultRow) throws -> T) throws -> [T]

    /// Runs a statement and returns how many rows it changed.
    /// - Throws: the engine's error.
    @discardableResult
    func run(_ statement: SQLStatement, _ arguments: [SQLValue]) throws -> Int
}

extension Database: SQLConnection {
    public func query<T>(_ statement: SQLStatement, _ arguments: [SQLValue], row: (Row) throws -> T) throws -> [T] {
        try query(statement.sqlite, arguments, row: row)
    }

    @discardableResult
    public func run(_ statement: SQLStatement, _ arguments: [SQLValue]) throws -> Int {
        try run(statement.sqlite, arguments)
        return changes
    }
}
