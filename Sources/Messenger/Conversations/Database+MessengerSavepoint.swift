import CourierCore

extension Database {
    /// Runs `body` inside a savepoint: all of it or nothing, whether or not the caller opened a
    /// transaction (the decrypt path commits its session state and the message together, so the
    /// store must nest inside that transaction rather than open its own).
    func messengerSavepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT messenger_store")
        do {
            let result = try body()
            try execute("RELEASE messenger_store")
            return result
        } catch {
            try? execute("ROLLBACK TO messenger_store")
            try? execute("RELEASE messenger_store")
            throw error
        }
    }
}
