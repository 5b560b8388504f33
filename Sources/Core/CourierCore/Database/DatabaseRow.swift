/// A result row as both engines hand it out (SQLite's `Row`, PostgreSQL's `PostgresRow`), so that
/// stores with one schema on two engines map their rows with one function.
public protocol DatabaseRow {
    /// An integer column (0 for `NULL`).
    func int(_ column: Int32) -> Int64
    /// A text column, or `nil` for `NULL`.
    func text(_ column: Int32) -> String?
    /// A column's bytes, empty for `NULL`.
    func bytes(_ column: Int32) -> [UInt8]
    /// Whether a column is `NULL`.
    func isNull(_ column: Int32) -> Bool
}

extension Row: DatabaseRow {}
