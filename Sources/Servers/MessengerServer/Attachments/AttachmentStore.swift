/// Where attachment ciphertext is kept while its upload is resumed and until it expires: files
/// in a directory (`AttachmentFiles`, one server) or rows in PostgreSQL
/// (`PostgresAttachmentStore`, so that any instance can resume an upload or serve a download).
/// The upload's state (who created it, its length, how much has arrived) is in `MessengerStore`.
public protocol AttachmentStore: Sendable {
    /// Writes a piece at `offset` durably: when it returns, the piece survives a crash.
    /// - Throws: `MessengerStoreError`: `.diskFull` when the disk (or the database server's) is
    ///   full, `.storage` otherwise.
    func write(_ bytes: [UInt8], at offset: Int64, to id: String) throws(MessengerStoreError)

    /// The whole ciphertext, or `nil` when none is kept under `id`.
    /// - Throws: `MessengerStoreError`.
    func read(_ id: String) throws(MessengerStoreError) -> [UInt8]?

    /// Deletes what is kept under `id` (nothing happens when there is nothing).
    func remove(_ id: String)
}
