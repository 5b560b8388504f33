import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

/// Device credentials: high-entropy secrets kept as salted token hashes (Signal-Server's
/// `SaltedTokenHash` v2), the token checked before anything is hashed, legacy Argon2id hashes
/// migrated at the next sign-in.
@Suite(.timeLimit(.minutes(2))) struct CredentialTests {
    /// A base64 secret of `count` random bytes.
    static func secret(bytes count: Int = 32) -> String {
        Base64.encode((0..<count).map { _ in UInt8.random(in: 0...255) })
    }

    static let weakSecrets: [String] = [
        String(repeating: "x", count: 32),  // not base64 of anything random
        UUID().uuidString + UUID().uuidString,  // hyphens: not base64
        Base64.encode([UInt8](repeating: 0, count: 32)),  // 32 zero bytes
        Base64.encode((0..<32).map { UInt8($0 % 2) }),  // two byte values
        Base64.encode((0..<8).map { _ in UInt8.random(in: 0...255) }),  // 64 bits
        Base64.encode((0..<15).map { _ in UInt8.random(in: 0...255) }),  // 120 bits
    ]

    @Test(arguments: weakSecrets)
    func aLowEntropySecretIsRefusedAtRegistration(_ secret: String) async throws {
        let harness = try await MessengerHarness()
        defer { harness.stop() }
        let refused = try await harness.request(
            "POST", "/v1/accounts", json: ["password": .string(secret), "registrationId": 5, "name": "phone"])
        #expect(refused.status == 400)
        #expect(refused.json?["code"] == "weak_secret")
    }

    @Test(arguments: StoreBackend.allCases) func aLowEntropySecretIsRefusedAtLinkingAndTheTokenStaysUsable(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let phone = try await harness.register()
        let token = try await harness.request("POST", "/v1/devices/linking-token", as: phone)
        let tokenText = try #require(token.json?["token"]?.stringValue)
        let weak = try await harness.request(
            "PUT", "/v1/devices/link",
            json: [
                "token": .string(tokenText), "password": .string(String(repeating: "y", count: 44)),
                "registrationId": 6,
            ])
        #expect(weak.status == 400)
        #expect(weak.json?["code"] == "weak_secret")
        let laptop = try TestDevice(name: "laptop")
        var body = laptop.registration.objectValue ?? [:]
        body["token"] = .string(tokenText)
        #expect(try await harness.request("PUT", "/v1/devices/link", json: .object(body)).status == 200)
    }

    @Test(arguments: StoreBackend.allCases) func aSecretIsStoredAsASaltedTokenHashAndSignsIn(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let phone = try await harness.register()
        let laptop = try await harness.link(to: phone)
        let phoneHash = try #require(try harness.store.device(accountId: phone.accountId, deviceId: 1)?.passwordHash)
        let laptopHash = try #require(
            try harness.store.device(accountId: phone.accountId, deviceId: 2)?.passwordHash)
        // "2.<salt: 32 hex>.<HKDF-SHA256: 64 hex>"
        for hash in [phoneHash, laptopHash] {
            let parts = hash.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 3 && parts[0] == "2" && parts[1].count == 32 && parts[2].count == 64, "\(hash)")
            #expect(!hash.contains(phone.password) && !hash.contains(laptop.password))
        }
        #expect(try await harness.request("GET", "/v1/devices", as: phone).status == 200)
        #expect(try await harness.request("GET", "/v1/devices", as: laptop).status == 200)
        let impostor = try TestDevice(name: "impostor")
        impostor.accountId = phone.accountId
        impostor.deviceId = 1
        #expect(try await harness.request("GET", "/v1/devices", as: impostor).status == 401)
    }

    @Test(arguments: StoreBackend.allCases) func linkingChecksTheTokenBeforeTheSecret(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        // An unknown token with a secret that would be refused: the token decides, first.
        let unknown = try await harness.request(
            "PUT", "/v1/devices/link",
            json: ["token": .string(SodiumFreeToken.random()), "password": "short", "registrationId": 6])
        #expect(unknown.status == 403)
        #expect(unknown.json?["code"] == "invalid_linking_token")
        let valid = try TestDevice(name: "laptop")
        var body = valid.registration.objectValue ?? [:]
        body["token"] = .string(SodiumFreeToken.random())
        let before = harness.messenger.credentialWork.tokenHashes
        #expect(try await harness.request("PUT", "/v1/devices/link", json: .object(body)).status == 403)
        #expect(harness.messenger.credentialWork.tokenHashes == before, "a wrong token cost a hash")
    }

    @Test(arguments: StoreBackend.allCases) func aLegacyArgon2idCredentialIsMigratedAtTheNextSuccessfulSignIn(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let device = try TestDevice(name: "old phone")
        device.accountId = UUID().uuidString
        device.deviceId = 1
        let legacy = try #require(harness.messenger.configuration.legacyArgon2idHash(device.password))
        #expect(legacy.hasPrefix("$argon2id$"))
        try harness.store.createAccount(
            device.accountId,
            device: DeviceRecord(
                id: 1, registrationId: device.registrationId, name: device.name, passwordHash: legacy, createdAt: 0))

        // A wrong secret migrates nothing.
        let impostor = try TestDevice(name: "impostor")
        impostor.accountId = device.accountId
        impostor.deviceId = 1
        #expect(try await harness.request("GET", "/v1/devices", as: impostor).status == 401)
        #expect(try harness.store.device(accountId: device.accountId, deviceId: 1)?.passwordHash == legacy)

        #expect(try await harness.request("GET", "/v1/devices", as: device).status == 200)
        let migrated = try #require(try harness.store.device(accountId: device.accountId, deviceId: 1)?.passwordHash)
        #expect(migrated.hasPrefix("2."))
        #expect(harness.messenger.credentialWork.migrated == 1)
        let argon2id = harness.messenger.credentialWork.argon2idVerifications
        #expect(argon2id == 2)
        #expect(try await harness.request("GET", "/v1/devices", as: device).status == 200)
        #expect(try await harness.request("GET", "/v1/devices", as: impostor).status == 401)
        #expect(harness.messenger.credentialWork.argon2idVerifications == argon2id, "Argon2id ran after migration")
    }

    @Test(arguments: StoreBackend.allCases) func legacySignInsBeyondTheHashingCapGet503WithRetryAfter(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.maximumConcurrentPasswordHashes = 1 }
        defer { harness.stop() }
        let device = try TestDevice(name: "old phone")
        device.accountId = UUID().uuidString
        device.deviceId = 1
        let legacy = try #require(harness.messenger.configuration.legacyArgon2idHash(device.password))
        try harness.store.createAccount(
            device.accountId,
            device: DeviceRecord(
                id: 1, registrationId: device.registrationId, name: device.name, passwordHash: legacy, createdAt: 0))
        let modern = try await harness.register()

        // Every slot busy: a legacy sign-in is refused at once, without hashing; a device whose
        // credential is a salted token hash is not held up.
        let held = try await harness.messenger.holdingPasswordHashSlot {
            let busy = try await harness.request("GET", "/v1/devices", as: device)
            #expect(busy.status == 503)
            #expect(busy.header("retry-after") == "1")
            #expect(busy.json?["code"] == "busy")
            #expect(try await harness.request("GET", "/v1/devices", as: modern).status == 200)
            return true
        }
        #expect(held == true)
        #expect(harness.messenger.credentialWork.argon2idVerifications == 0)
        #expect(harness.messenger.credentialWork.refusedBusy == 1)
        #expect(try harness.store.device(accountId: device.accountId, deviceId: 1)?.passwordHash == legacy)
        // A refusal for load is not a wrong password: the source's failure budget is untouched.
        #expect(try await harness.request("GET", "/v1/devices", as: device).status == 200)
    }

    @Test(arguments: StoreBackend.allCases) func anUnknownAccountCostsTheSameHashAsAKnownOne(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let phone = try await harness.register()
        let before = harness.messenger.credentialWork.tokenHashes
        let stranger = try TestDevice(name: "stranger")
        stranger.accountId = UUID().uuidString
        stranger.deviceId = 1
        #expect(try await harness.request("GET", "/v1/devices", as: stranger).status == 401)
        #expect(harness.messenger.credentialWork.tokenHashes == before + 1)
        let impostor = try TestDevice(name: "impostor")
        impostor.accountId = phone.accountId
        impostor.deviceId = 1
        #expect(try await harness.request("GET", "/v1/devices", as: impostor).status == 401)
        #expect(harness.messenger.credentialWork.tokenHashes == before + 2)
    }
}

/// A 64-hex-digit token nobody issued.
enum SodiumFreeToken {
    static func random() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
