import CourierCore

extension PostgresConnection: SQLConnection {
    public func query<T>(_ statement: SQLStatement, _ arguments: [SQLValue], row: (PostgresRow) throws -> T) throws
        -> [T]
    {
        try query(statement.postgres, arguments, row: row)
    }

    @discardableResult
    public func run(_ statement: SQLStatement, _ arguments: [SQLValue]) throws -> Int {
        try run(statement.postgres, arguments)
    }
}
