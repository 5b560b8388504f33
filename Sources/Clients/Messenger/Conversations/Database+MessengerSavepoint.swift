import CourierCore

extension Database {
    /// Runs `body` inside a savepoint: all of it or nothing, whether or not the caller opened a
    /// transaction (the decrypt path commits its session state and the message together, so the
    /// store must nest inside that transaction rather than open its own).
    /// The three statements are cached, not parsed again per call (they run for every message).
    func messengerSavepoint<T>(_ body: () throws -> T) throws -> T {
        try run("SAVEPOINT messenger_store")
        do {
            let result = try body()
            try run("RELEASE messenger_store")
            return result
        } catch {
            try? execute("ROLLBACK TO messenger_store")
            try? execute("RELEASE messenger_store")
            throw error
        }
    }
}
