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
    let sink: any IncomingMessageSink
    let lockPath: String

    static func databasePath(in directory: String) -> String { directory + "/messenger.sqlite" }

    /// Creates the file for a new device identity.
    convenience init(
        directory: String, keyProvider: any KeyProvider, identity: IdentityKeyPair, registrationId: UInt32,
        policy: IdentityTrustPolicy = .trustOnFirstUse, sink: any IncomingMessageSink
    ) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try SQLiteSignalStore(
            path: Self.databasePath(in: directory), keyProvider: keyProvider, identity: identity,
            registrationId: registrationId, policy: policy)
        try self.init(directory: directory, signal: store, sink: sink)
    }

    /// Reopens an existing device's file.
    convenience init(
        directory: String, keyProvider: any KeyProvider, policy: IdentityTrustPolicy = .trustOnFirstUse,
        sink: any IncomingMessageSink
    ) throws {
        let store = try SQLiteSignalStore(
            path: Self.databasePath(in: directory), keyProvider: keyProvider, policy: policy)
        try self.init(directory: directory, signal: store, sink: sink)
    }

    private init(directory: String, signal: SQLiteSignalStore, sink: any IncomingMessageSink) throws {
        self.directory = directory
        self.signal = signal
        self.sink = sink
        lockPath = directory + "/ratchet.lock"
        try signal.sharedTransaction { _, _, db in
            try MessengerSchema.migrate(db)
            try sink.migrate(db)
        }
    }

    /// Runs `body` holding the cross-process ratchet lock, in one transaction over the Signal
    /// stores and the messenger's tables.
    func transaction<R>(_ body: (SignalStores, any SenderKeyStore, Database) throws -> R) throws -> R {
        let lock = try FileLock(waitingFor: lockPath)
        return try withExtendedLifetime(lock) { try signal.sharedTransaction(body) }
    }

    /// Reads the messenger's tables (one snapshot; no lock).
    func read<R>(_ body: (Database) throws -> R) throws -> R {
        try signal.sharedRead(body)
    }
}
