import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite struct KeyDirectoryTests {
    @Test(arguments: StoreBackend.allCases) func aBadSignedPreKeySignatureIs422AndStoresNothing(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let phone = try await harness.register()
        let bad = try await harness.request(
            "PUT", "/v2/keys", as: phone, json: try phone.keyUpload(preKeys: 5, badSignature: true))
        #expect(bad.status == 422)
        #expect(bad.json?["code"] == "invalid_signature")
        #expect(try await harness.request("GET", "/v2/keys", as: phone).json?["count"] == 0)
        try await harness.uploadKeys(phone, preKeys: 5)
        #expect(try await harness.request("GET", "/v2/keys", as: phone).json?["count"] == 5)
        let tooMany = try await harness.request("PUT", "/v2/keys", as: phone, json: try phone.keyUpload(preKeys: 101))
        #expect(tooMany.status == 413)
        let truncated = try await harness.request(
            "PUT", "/v2/keys", as: phone, json: ["identityKey": .string(Base64.encode([5, 1, 2]))])
        #expect(truncated.status == 400)
    }

    @Test(arguments: StoreBackend.allCases) func aBundleRequestSaysWhetherTheAccountIsUnknownOrHasNoKeys(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let keyless = try await harness.register(name: "keyless")
        let nobody = UUID().uuidString.lowercased()
        let unknown = try await harness.request("GET", "/v2/keys/\(nobody)/*", as: alice)
        #expect(unknown.status == 404)
        #expect(unknown.json?["code"] == "unknown_account")
        #expect(unknown.json?["message"] == .string("no account \(nobody) on this server"))
        let noKeys = try await harness.request("GET", "/v2/keys/\(keyless.accountId)/*", as: alice)
        #expect(noKeys.status == 404)
        #expect(noKeys.json?["code"] == "no_keys")
        #expect(noKeys.json?["message"] == .string("\(keyless.accountId) has no device with keys yet"))
        try await harness.uploadKeys(keyless, preKeys: 1)
        #expect(
            try await harness.request("GET", "/v2/keys/\(keyless.accountId)/9", as: alice).json?["code"] == "no_keys")
        #expect(try await harness.request("GET", "/v2/keys/\(keyless.accountId)/*", as: alice).status == 200)
    }

    @Test(arguments: StoreBackend.allCases) func concurrentFetchesNeverShareAOneTimePreKey(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) { $0.preKeyFetchRate = nil }
        defer { harness.stop() }
        let bob = try await harness.register()
        try await harness.uploadKeys(bob, preKeys: 20)
        let fetchers = try await withThrowingTaskGroup(of: TestDevice.self) { group in
            for _ in 0..<8 { group.addTask { try await harness.register(name: "fetcher") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // 8 fetchers × 4 fetches = 32 bundles for 20 one-time prekeys.
        let keyIds = try await withThrowingTaskGroup(of: [Int64?].self) { group in
            for fetcher in fetchers {
                group.addTask {
                    var ids: [Int64?] = []
                    for _ in 0..<4 {
                        let bundle = try await harness.request("GET", "/v2/keys/\(bob.accountId)/1", as: fetcher)
                        #expect(bundle.status == 200)
                        #expect(
                            bundle.json?["identityKey"]?.stringValue
                                == Base64.encode(bob.identity.identityKey.serialized))
                        let device = bundle.json?["devices"]?.arrayValue?.first
                        #expect(device?["signedPreKey"]?["keyId"] == 7)
                        ids.append(device?["preKey"]?["keyId"]?.intValue)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let handedOut = keyIds.compactMap { $0 }
        #expect(handedOut.count == 20)
        #expect(Set(handedOut) == Set(bob.preKeyIds))
        #expect(keyIds.filter { $0 == nil }.count == 12)
        #expect(try await harness.request("GET", "/v2/keys", as: bob).json?["count"] == 0)
    }

    @Test(arguments: StoreBackend.allCases) func aBundleForEveryDeviceAndFetchesAreRateLimited(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) {
            $0.preKeyFetchRate = RateLimit(perSecond: 0.01, burst: 2)
        }
        defer { harness.stop() }
        let bob = try await harness.register()
        let bobLaptop = try await harness.link(to: bob)
        try await harness.uploadKeys(bob, preKeys: 3)
        try await harness.uploadKeys(bobLaptop, preKeys: 3, firstId: 100)
        let alice = try await harness.register()
        let all = try await harness.request("GET", "/v2/keys/\(bob.accountId)/*", as: alice)
        let devices = all.json?["devices"]?.arrayValue ?? []
        #expect(devices.compactMap { $0["deviceId"]?.intValue } == [1, 2])
        #expect(
            devices.compactMap { $0["registrationId"]?.intValue } == [
                Int64(bob.registrationId), Int64(bobLaptop.registrationId),
            ])
        #expect(devices.compactMap { $0["preKey"]?["keyId"]?.intValue } == [bob.preKeyIds[0], bobLaptop.preKeyIds[0]])
        #expect(try await harness.request("GET", "/v2/keys/\(bob.accountId)/9", as: alice).status == 404)
        let limited = try await harness.request("GET", "/v2/keys/\(bob.accountId)/1", as: alice)
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") != nil)
    }

    @Test(arguments: StoreBackend.allCases) func aDeviceIsToldOnItsSocketWhenItsPreKeysRunLow(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) { $0.preKeyRefillThreshold = 2 }
        defer { harness.stop() }
        let bob = try await harness.register()
        try await harness.uploadKeys(bob, preKeys: 3)
        let alice = try await harness.register()
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await harness.connect(bob, client: client)
        var reader = DeliveryReader(socket)
        #expect(await reader.next()?["path"] == "/api/v1/queue/empty")
        _ = try await harness.request("GET", "/v2/keys/\(bob.accountId)/1", as: alice)  // 2 left: not low yet
        _ = try await harness.request("GET", "/v2/keys/\(bob.accountId)/1", as: alice)  // 1 left
        let low = await reader.next()
        #expect(low?["path"] == "/api/v1/keys/low")
        #expect(low?["body"]?["count"] == 1)
    }
}
