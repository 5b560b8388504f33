internal import CourierCore
import Synchronization

/// The stores of one running `SQLiteSignalStore` transaction: the same tables, on the
/// transaction's connection, valid only until the transaction ends.
final class SQLiteSignalTransaction: SessionStore, PreKeyStore, SignedPreKeyStore, IdentityKeyStore,
    SenderKeyStore, @unchecked Sendable
{
    // @unchecked: `database` is only reached inside `isOpen.withLock`, so two threads never use it
    // at once, and only while `isOpen` is true. The transaction closes this object before its
    // connection goes back to the pool, and until then it holds the pool's writer lock, so no
    // code outside this object uses the connection meanwhile.
    private let database: Database
    private let isOpen = Mutex(true)
    private let store: SQLiteSignalStore

    /// The store whose transaction runs in this task or thread, to refuse re-entrant use.
    @TaskLocal static var activeStore: ObjectIdentifier?

    init(database: Database, store: SQLiteSignalStore) {
        self.database = database
        self.store = store
    }

    /// Ends the scope; later calls fail instead of touching a connection they no longer own.
    func close() { isOpen.withLock { $0 = false } }

    /// These stores as a bundle without a runner: nested transactions join this one.
    var stores: SignalStores {
        SignalStores(sessions: self, preKeys: self, signedPreKeys: self, identities: self)
    }

    private func run<T: Sendable>(_ operation: String, _ body: (SQLiteSignalTables) throws -> T) throws -> T {
        try isOpen.withLock { open throws -> T in
            guard open else {
                throw SignalProtocolError(
                    .invalidArgument, "signal store could not \(operation): its transaction has ended")
            }
            return try SQLiteStorageError.translating(operation) {
                try body(SQLiteSignalTables(database, store.sealer))
            }
        }
    }

    func loadSession(for address: ProtocolAddress) throws -> SessionRecord? {
        try run("load the session") { try $0.session(for: address) }
    }
    func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws {
        try run("store the session") { try $0.storeSession(record, for: address) }
    }
    func loadPreKey(id: UInt32) throws -> PreKeyRecord? {
        try run("load a prekey") { try $0.preKey(id: id) }
    }
    func storePreKey(_ record: PreKeyRecord) throws {
        try run("store a prekey") { try $0.storePreKey(record) }
    }
    func removePreKey(id: UInt32) throws {
        try run("remove a prekey") { try $0.removePreKey(id: id) }
    }
    func loadSignedPreKey(id: UInt32) throws -> SignedPreKeyRecord? {
        try run("load a signed prekey") { try $0.signedPreKey(id: id) }
    }
    func storeSignedPreKey(_ record: SignedPreKeyRecord) throws {
        try run("store a signed prekey") { try $0.storeSignedPreKey(record) }
    }
    func identityKeyPair() -> IdentityKeyPair { store.identity }
    func localRegistrationId() -> UInt32 { store.registrationId }
    @discardableResult
    func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress) throws -> Bool {
        try run("save an identity") { try $0.saveIdentity(identity, for: address) }
    }
    func isTrustedIdentity(_ identity: IdentityKey, for address: ProtocolAddress, direction: IdentityDirection) throws
        -> Bool
    {
        if store.policy == .acceptChanges { return true }
        return store.policy.trusts(identity, stored: try self.identity(for: address))
    }
    func identity(for address: ProtocolAddress) throws -> IdentityKey? {
        try run("load an identity") { try $0.identity(for: address) }
    }
    func loadSenderKey(for name: SenderKeyName) throws -> SenderKeyRecord? {
        try run("load a sender key") { try $0.senderKey(for: name) }
    }
    func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) throws {
        try run("store a sender key") { try $0.storeSenderKey(record, for: name) }
    }
}
