import CourierCore
import CourierHTTPClient
import SignalProtocol

/// One device of an end-to-end encrypted messenger account.
///
/// Keys are made and kept on the device (sealed by the configuration's `KeyProvider`); every
/// message is encrypted once per device of the recipient and once per other device of the sender
/// (Sesame); decrypting, storing and consuming the one-time prekey commit together, and an
/// envelope is acknowledged only after that commit.
///
/// ```swift
/// let alice = try await MessengerClient.register(MessengerClientConfiguration(
///     serverURL: "https://chat.example", directory: dir, keyProvider: FileKeyProvider(path: keyFile)))
/// try await alice.send(text: "hi", to: bobAccountId)
/// for event in try await alice.sync() { … }      // catch-up over HTTP
/// ```
public actor MessengerClient {
    /// The device's account, device number and password.
    public nonisolated let credentials: DeviceCredentials
    nonisolated let configuration: MessengerClientConfiguration
    nonisolated let storage: MessengerStorage
    /// Transactions this device's store has committed since it was opened, each one fsync (the
    /// benchmark divides them by the envelopes received).
    package nonisolated var storeCommits: Int { storage.signal.transactionsCommitted }
    nonisolated let api: MessengerAPI
    nonisolated let processor: EnvelopeProcessor
    /// Contacts' identity keys, safety numbers, verification and key-change warnings: every key
    /// the sessions meet (fetched bundles, session-opening messages) is observed here, and
    /// sending asks it first (`maySend(to:)`).
    public nonisolated let trust: ContactVerification
    var sesame: SesameSender {
        SesameSender(
            storage: storage, api: api, credentials: credentials, clock: clock, trust: trust, socket: socketRequests)
    }
    /// The open delivery socket's requests (`DeliveryListener`), which sends use while it is open.
    var socketRequests: SocketRequests?
    nonisolated var clock: any Clock { configuration.clock }
    /// When the own device list was last asked for because no other own device was known.
    var ownDevicesAskedAt: Int64?
    /// The question for this account's devices while it is out (`learnOwnDevicesIfNone`).
    var ownDevicesAsking: Task<Void, any Error>?
    /// The gaps per conversation that last started a catch-up: a gap that the catch-up could not
    /// fill (a seq used by a message this device never gets) does not start another.
    var gapsCaughtUp: [String: [ClosedRange<Int64>]] = [:]

    init(
        configuration: MessengerClientConfiguration, storage: MessengerStorage, credentials: DeviceCredentials,
        api: MessengerAPI
    ) {
        self.configuration = configuration
        self.storage = storage
        self.credentials = credentials
        self.api = api
        processor = EnvelopeProcessor(
            storage: storage, clock: configuration.clock,
            ownAddress: ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId))
        trust = ContactVerification(
            presenter: SafetyNumberPresenter(
                localIdentifier: credentials.accountId, localKey: storage.signal.identityKeyPair().identityKey),
            store: SQLiteContactTrustStore(pool: storage.conversations.database),
            policy: configuration.identityChangePolicy)
    }

    /// Creates an account and its first device: a new identity key, signed prekey and 100
    /// one-time prekeys, uploaded.
    /// - Throws: `MessengerClientError` (`.server`, `.transport`, `.storage`).
    public static func register(_ configuration: MessengerClientConfiguration, http: HTTPClient = HTTPClient())
        async throws -> MessengerClient
    {
        let api = MessengerAPI(baseURL: configuration.serverURL, client: http, clock: configuration.clock)
        let (storage, credentials) = try await DeviceRegistration.create(
            configuration: configuration, identity: try IdentityKeyPair.generate(), api: api
        ) { password, registrationId in
            try await api.register(password: password, registrationId: registrationId, name: configuration.deviceName)
        }
        return MessengerClient(configuration: configuration, storage: storage, credentials: credentials, api: api)
    }

    /// Links a new device to an existing account with a linking token from one of its devices.
    /// - Parameter identity: the account's identity key pair, handed over by the existing device
    ///   on a channel of the app's own (a provisioning QR code in Signal); this module does not
    ///   carry it.
    /// - Throws: `MessengerClientError`.
    public static func link(
        _ configuration: MessengerClientConfiguration, token: String, identity: IdentityKeyPair,
        http: HTTPClient = HTTPClient()
    ) async throws -> MessengerClient {
        let api = MessengerAPI(baseURL: configuration.serverURL, client: http, clock: configuration.clock)
        let (storage, credentials) = try await DeviceRegistration.create(
            configuration: configuration, identity: identity, api: api
        ) { password, registrationId in
            try await api.link(
                token: token, password: password, registrationId: registrationId, name: configuration.deviceName)
        }
        return MessengerClient(configuration: configuration, storage: storage, credentials: credentials, api: api)
    }

    /// Reopens a registered device (after a restart, or in a notification extension).
    /// - Throws: `.notRegistered`; the store's errors.
    public static func open(_ configuration: MessengerClientConfiguration, http: HTTPClient = HTTPClient()) throws
        -> MessengerClient
    {
        let storage = try MessengerStorage(
            directory: configuration.directory, keyProvider: configuration.keyProvider)
        let credentials = try DeviceRegistration.credentials(in: storage)
        let api = MessengerAPI(baseURL: configuration.serverURL, client: http, clock: configuration.clock)
        return MessengerClient(configuration: configuration, storage: storage, credentials: credentials, api: api)
    }

    /// The conversation id of a pair: the same on both sides.
    public static func conversationId(_ one: String, _ other: String) -> String {
        "dm:" + [one, other].sorted().joined(separator: ":")
    }

    /// This account's identity key pair, for provisioning a device being linked.
    public func identityKeyPair() -> IdentityKeyPair { storage.signal.identityKeyPair() }

    /// A one-use token that links another device to this account (10 minutes).
    /// - Throws: `MessengerClientError`.
    public func linkingToken() async throws -> String { try await api.linkingToken(as: credentials) }

    /// Removes one of this account's devices on the server (the first device or the device itself).
    /// - Throws: `MessengerClientError`.
    public func removeDevice(_ deviceId: UInt32) async throws {
        try await api.removeDevice(deviceId, as: credentials)
    }

    /// Asks for this account's devices when no other one is known (at most once a minute), so a
    /// second device gets its copies from the first message on. Best effort for senders: a failure
    /// leaves the roster as it was, and a send a minute later asks again. A send that comes while
    /// the question is out waits for its answer (it went on without the devices before, and they
    /// missed its copy).
    func learnOwnDevicesIfNone() async throws {
        if let asking = ownDevicesAsking { return try await asking.value }
        let known = try storage.read { try DeviceRoster.active(account: credentials.accountId, db: $0) }
        guard known.allSatisfy({ $0 == credentials.deviceId }) else { return }
        let now = clock.nowMilliseconds
        if let asked = ownDevicesAskedAt, now - asked < 60_000 { return }
        ownDevicesAskedAt = now
        let asking = Task { try await refreshOwnDevices() }
        ownDevicesAsking = asking
        defer { ownDevicesAsking = nil }
        try await asking.value
    }

    /// Asks the server for this account's devices and adds new ones to the roster, so that the
    /// next send reaches them without waiting for a 409.
    /// - Throws: `MessengerClientError`.
    public func refreshOwnDevices() async throws {
        let devices = try await api.devices(as: credentials)
        try storage.transaction { _, _, db in
            for device in devices { try DeviceRoster.add(account: credentials.accountId, device: device, db: db) }
        }
    }
}
