/// Runs `body` between `begin` and `commit`, and `rollback` when `body` or `commit` throws: what
/// the engines' transactions and savepoints share.
///
/// The first error wins: the error of `body` (or of `commit`) is the one thrown; a rollback that
/// fails after it (the transaction or savepoint already gone) never replaces it.
/// - Throws: what `begin`, `body` or `commit` throws.
package func allOrNothing<T>(
    begin: () throws -> Void, commit: () throws -> Void, rollback: () throws -> Void, _ body: () throws -> T
) throws -> T {
    try begin()
    do {
        let result = try body()
        try commit()
        return result
    } catch {
        try? rollback()
        throw error
    }
}
