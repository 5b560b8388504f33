import CourierCore
import CourierPostgres

extension PostgresConnection: SyncConnection {
    func query<T>(_ statement: SyncStatement, _ arguments: [SQLValue], row: (PostgresRow) throws -> T) throws -> [T] {
        try query(statement.postgres, arguments, row: row)
    }

    func run(_ statement: SyncStatement, _ arguments: [SQLValue]) throws -> Int {
        try run(statement.postgres, arguments)
    }
}
