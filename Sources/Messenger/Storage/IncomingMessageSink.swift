import CourierCore

/// Where conversation messages are written, on the connection of a transaction the messenger
/// opened (the same one that advances the ratchet). `CoreMessageTable` is the minimal built-in
/// one; the conversations store plugs in here.
protocol IncomingMessageSink: Sendable {
    /// Creates its tables (idempotent).
    func migrate(_ db: Database) throws
    /// Stores a message; false when one with the same sender and id exists (nothing written).
    func store(_ message: StoredMessage, in db: Database) throws -> Bool
    /// Records that `clientId` got `serverSeq` from the server.
    func markSent(clientId: String, serverSeq: Int64, in db: Database) throws
    /// Moves this account's messages in `conversation` up to `upToSeq` to `state` (only forward).
    func applyReceipt(state: String, conversation: String, upToSeq: Int64, in db: Database) throws
    /// This device's messages still `sending` (a send that failed or was cut off), oldest first.
    func pendingOutgoing(from account: String, device: UInt32, db: Database) throws -> [StoredMessage]
    /// The messages of a conversation: by `serverSeq`, pending ones last.
    func messages(in conversation: String, db: Database) throws -> [StoredMessage]
}
