import CourierCore
import CourierHTTPClient
import SignalProtocol

/// Creates a device: a new account's first device, or one linked to an existing account.
enum DeviceRegistration {
    /// The device's secret: 32 bytes from the system's CSPRNG, in standard base64 (256 bits; the
    /// server wants base64 of at least 16 random bytes and keeps only a salted hash of it).
    static func newPassword() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Generates the identity, opens the store, registers (or links) and uploads the first keys.
    static func create(
        configuration: MessengerClientConfiguration, identity: IdentityKeyPair, api: MessengerAPI,
        password: String = newPassword(),
        account: (_ password: String, _ registrationId: UInt32) async throws -> (String, UInt32)
    ) async throws -> (MessengerStorage, DeviceCredentials) {
        let registrationId = try KeyHelper.generateRegistrationId()
        let storage = try MessengerStorage(
            directory: configuration.directory, keyProvider: configuration.keyProvider, identity: identity,
            registrationId: registrationId)
        let (accountId, deviceId) = try await account(password, registrationId)
        let credentials = DeviceCredentials(accountId: accountId, deviceId: deviceId, password: password)
        let sealed = try storage.signal.sealSecret(
            SecretBytes(Array(password.utf8)), table: "messenger_account", key: [accountId, String(deviceId)])
        let upload = try storage.transaction { stores, _, db in
            try db.run(
                """
                INSERT OR REPLACE INTO messenger_account (singleton, account_id, device_id, sealed_password, server_url)
                VALUES (1, ?, ?, ?, ?)
                """,
                [.text(accountId), .integer(Int64(deviceId)), .blob(sealed), .text(configuration.serverURL)])
            try DeviceRoster.add(account: accountId, device: deviceId, db: db)
            return try DeviceKeys.initial(stores: stores, db: db, nowMilliseconds: configuration.clock.nowMilliseconds)
        }
        try await api.uploadKeys(upload, as: credentials)
        return (storage, credentials)
    }

    /// The stored credentials (the password opened with the store's key).
    /// - Throws: `.notRegistered` when the device never finished registering; `.storage` when
    ///   the sealed password does not open.
    static func credentials(in storage: MessengerStorage) throws -> DeviceCredentials {
        let rows = try storage.read { db in
            try db.query("SELECT account_id, device_id, sealed_password FROM messenger_account WHERE singleton = 1") {
                ($0.text(0) ?? "", UInt32(truncatingIfNeeded: $0.int(1)), $0.bytes(2))
            }
        }
        guard let (accountId, deviceId, sealed) = rows.first else {
            throw MessengerClientError(.notRegistered, "this device has not finished registering")
        }
        let password: SecretBytes
        do {
            password = try storage.signal.openSecret(
                sealed, table: "messenger_account", key: [accountId, String(deviceId)])
        } catch {
            throw MessengerClientError(.storage, "the device password does not open", underlying: error)
        }
        return DeviceCredentials(
            accountId: accountId, deviceId: deviceId,
            password: String(decoding: password.unsafeCopiedBytes, as: UTF8.self))
    }
}
