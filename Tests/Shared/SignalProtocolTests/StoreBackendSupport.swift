import Foundation

@testable import SignalProtocol

/// Where a test device keeps its Signal state.
enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case inMemory
    case sqliteMemory
    case sqliteFile

    var description: String { rawValue }
}

/// Every store protocol plus the bundle, so one test body runs on each backend.
protocol TestSignalStore: SessionStore, PreKeyStore, SignedPreKeyStore, IdentityKeyStore, SenderKeyStore {
    var stores: SignalStores { get }
}

extension InMemorySignalStore: TestSignalStore {}
extension SQLiteSignalStore: TestSignalStore {}

/// A directory under the system temp dir, removed when the last reference goes.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signal-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// One device whose stores live on a chosen backend.
struct BackendDevice {
    let name: String
    let deviceId: UInt32
    let identity: IdentityKeyPair
    let registrationId: UInt32
    let backend: StoreBackend
    let policy: IdentityTrustPolicy
    let store: any TestSignalStore
    /// The key that seals the SQLite store's records (a key file beside the database for `.sqliteFile`).
    let keyProvider: any KeyProvider
    /// The database file for `.sqliteFile`; the directory lives as long as the device.
    let path: String?
    private let directory: TemporaryDirectory?

    var address: ProtocolAddress { ProtocolAddress(name: name, deviceId: deviceId) }

    init(
        name: String, backend: StoreBackend, deviceId: UInt32 = 1, policy: IdentityTrustPolicy = .trustOnFirstUse
    ) throws {
        self.name = name
        self.deviceId = deviceId
        self.backend = backend
        self.policy = policy
        identity = try IdentityKeyPair.generate()
        registrationId = try KeyHelper.generateRegistrationId()
        switch backend {
        case .inMemory:
            store = InMemorySignalStore(identity: identity, registrationId: registrationId, policy: policy)
            keyProvider = try InMemoryKeyProvider()
            directory = nil
            path = nil
        case .sqliteMemory:
            keyProvider = try InMemoryKeyProvider()
            store = try SQLiteSignalStore(
                path: ":memory:", keyProvider: keyProvider, identity: identity, registrationId: registrationId,
                policy: policy)
            directory = nil
            path = nil
        case .sqliteFile:
            let directory = try TemporaryDirectory()
            let path = directory.path("\(name).sqlite")
            keyProvider = FileKeyProvider(path: directory.path("\(name).key"))
            store = try SQLiteSignalStore(
                path: path, keyProvider: keyProvider, identity: identity, registrationId: registrationId,
                policy: policy)
            self.directory = directory
            self.path = path
        }
    }

    private init(reopening device: BackendDevice, store: SQLiteSignalStore) {
        name = device.name
        deviceId = device.deviceId
        identity = device.identity
        registrationId = device.registrationId
        backend = device.backend
        policy = device.policy
        keyProvider = device.keyProvider
        path = device.path
        directory = device.directory
        self.store = store
    }

    /// The same device after an app restart: a new store over the same file, with the stored identity.
    func reopened() throws -> BackendDevice {
        guard let path else { throw SignalProtocolError(.invalidArgument, "only file-backed devices can reopen") }
        return BackendDevice(
            reopening: self, store: try SQLiteSignalStore(path: path, keyProvider: keyProvider, policy: policy))
    }

    /// Publishes a fresh signed prekey (and one-time prekey unless `oneTime` is false) and returns the bundle.
    func bundle(preKeyId: UInt32 = 31, signedPreKeyId: UInt32 = 7, oneTime: Bool = true) throws -> PreKeyBundle {
        let signed = try SignedPreKeyRecord.generate(
            identity: identity, id: signedPreKeyId, timestamp: 1_700_000_000_000)
        try store.storeSignedPreKey(signed)
        var preKey: PreKeyRecord?
        if oneTime {
            let record = PreKeyRecord(id: preKeyId, keyPair: try .generate())
            try store.storePreKey(record)
            preKey = record
        }
        return PreKeyBundle(
            registrationId: registrationId, deviceId: deviceId, preKeyId: preKey?.id, preKey: preKey?.keyPair.publicKey,
            signedPreKeyId: signed.id, signedPreKey: signed.keyPair.publicKey, signedPreKeySignature: signed.signature,
            identityKey: identity.identityKey)
    }

    func cipher(to other: BackendDevice) -> SessionCipher {
        SessionCipher(stores: store.stores, remoteAddress: other.address)
    }

    /// The stored session for `other`, serialised, to compare before and after.
    func sessionBytes(with other: BackendDevice) throws -> SecretBytes? {
        try store.loadSession(for: other.address)?.serialized()
    }
}

/// Alice with a session to Bob, started from Bob's bundle, both on `backend`.
func makeBackendPair(_ backend: StoreBackend, oneTime: Bool = true) throws -> (
    alice: BackendDevice, bob: BackendDevice
) {
    let alice = try BackendDevice(name: "alice", backend: backend)
    let bob = try BackendDevice(name: "bob", backend: backend)
    try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(
        bundle: bob.bundle(oneTime: oneTime))
    return (alice, bob)
}

/// Alice's sender key for a group, created and processed by Bob from its wire bytes, both on
/// `backend`. Use the ciphers through the pair: it keeps the devices' temporary directories.
struct GroupPair {
    let alice: BackendDevice
    let bob: BackendDevice
    let name: SenderKeyName
    let aliceGroup: GroupCipher
    let bobGroup: GroupCipher
    let distribution: SenderKeyDistributionMessage

    init(_ backend: StoreBackend) throws {
        alice = try BackendDevice(name: "alice", backend: backend)
        bob = try BackendDevice(name: "bob", backend: backend)
        name = SenderKeyName(groupId: "family-chat", sender: alice.address)
        aliceGroup = GroupCipher(store: alice.store)
        bobGroup = GroupCipher(store: bob.store)
        distribution = try aliceGroup.distributionMessage(for: name)
        try bobGroup.process(SenderKeyDistributionMessage(serialized: distribution.serialized), from: name)
    }
}
