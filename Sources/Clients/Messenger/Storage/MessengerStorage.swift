import CourierCore
import Foundation
import SignalProtocol

/// One device's local state: the sealed Signal stores and the messenger's tables in one SQLite
/// file (`messenger.sqlite` in `directory`), and the cross-process lock (`ratchet.lock`) that an
/// app and its notification extension take around every ratchet step.
///
/// Private keys live only in the Signal stores, sealed with the `KeyProvider`'s key
/// (`KeychainKeyProvider` on Apple platforms, `FileKeyProvider` on Linux).
final class MessengerStorage: Sendable {
    let directory: String
    let signal: SQLiteSignalStore
    /// The conversations (`MessageStore`'s tables in this file) for reads and page sources; the
    /// writes that must commit with the ratchet go through `transaction`.
    let conversations: ConversationStore
    let lockPath: String

    static func databasePath(in directory: String) -> String { directory + "/messenger.sqlite" }

    /// Creates the file for a new device identity.
    convenience init(
        directory: String, keyProvider: any KeyProvider, identity: IdentityKeyPair, registrationId: UInt32
    ) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try SQLiteSignalStore(
            path: Self.databasePath(in: directory), keyProvider: keyProvider, identity: identity,
            registrationId: registrationId)
        try self.init(directory: directory, signal: store)
    }

    /// Reopens an existing device's file.
    convenience init(directory: String, keyProvider: any KeyProvider) throws {
        let store = try SQLiteSignalStore(path: Self.databasePath(in: directory), keyProvider: keyProvider)
        try self.init(directory: directory, signal: store)
    }

    private init(directory: String, signal: SQLiteSignalStore) throws {
        self.directory = directory
        self.signal = signal
        lockPath = directory + "/ratchet.lock"
        try signal.sharedTransaction { _, _, db in try MessengerSchema.migrate(db) }
        // Opening the conversation store migrates its tables (`MessageStore.migrate`).
        conversations = try ConversationStore(path: Self.databasePath(in: directory))
    }

    /// Runs `body` holding the cross-process ratchet lock, in one transaction over the Signal
    /// stores and the messenger's tables.
    /// - Parameter deferringSync: for bookkeeping only (a message stored as `sending`, marked
    ///   `sent`): the commit skips its own fsync and is durable with the next synced commit (the
    ///   seal that follows a store) or the log's next truncation (its window is 500 ms; a truncation
    ///   that finds a reader busy waits for the next commit). Losing it to power loss only sends
    ///   again under the same client id, which the server stores once.
    /// - Throws: what `body` throws; `.storage` when the lock, the database or a sealed record fails.
    func transaction<R>(
        deferringSync: Bool = false, _ body: (SignalStores, any SenderKeyStore, Database) throws -> R
    ) throws -> R {
        try Self.translatingStorageErrors {
            let lock: FileLock
            do {
                lock = try FileLock(waitingFor: lockPath)
            } catch {
                throw MessengerClientError(.storage, "cannot take the ratchet lock", underlying: error)
            }
            return try withExtendedLifetime(lock) {
                try signal.sharedTransaction(deferringSync: deferringSync, body)
            }
        }
    }

    /// Reads the messenger's tables (one snapshot; no lock).
    /// - Throws: what `body` throws; `.storage` when the database fails.
    func read<R>(_ body: (Database) throws -> R) throws -> R {
        try Self.translatingStorageErrors { try signal.sharedRead(body) }
    }

    /// The Signal store's storage failures (database, corrupt record) as this module's `.storage`;
    /// everything else unchanged.
    private static func translatingStorageErrors<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SignalProtocolError where error.code == .storageFailure || error.code == .corruptRecord {
            throw MessengerClientError(.storage, "the device's store failed", underlying: error)
        } catch let error as DatabaseError {
            throw MessengerClientError(.storage, "the device's store failed", underlying: error)
        }
    }
}
