import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite struct AccountsTests {
    @Test(arguments: StoreBackend.allCases) func aLinkingTokenAddsADeviceOnceAndExpires(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let phone = try await harness.register()
        let laptop = try await harness.link(to: phone)
        #expect(laptop.accountId == phone.accountId)
        #expect(laptop.deviceId == 2)

        // A token used twice: the second use is refused and adds nothing.
        let token = try await harness.request("POST", "/v1/devices/linking-token", as: phone)
        let tokenText = try #require(token.json?["token"]?.stringValue)
        let tablet = try TestDevice(name: "tablet")
        var body = (tablet.registration.objectValue ?? [:])
        body["token"] = .string(tokenText)
        #expect(try await harness.request("PUT", "/v1/devices/link", json: .object(body)).status == 200)
        let again = try await harness.request("PUT", "/v1/devices/link", json: .object(body))
        #expect(again.status == 403)
        #expect(again.json?["code"] == "invalid_linking_token")

        // An expired token.
        let late = try await harness.request("POST", "/v1/devices/linking-token", as: phone)
        harness.clock.advance(by: .seconds(601))
        body["token"] = late.json?["token"] ?? .null
        #expect(try await harness.request("PUT", "/v1/devices/link", json: .object(body)).status == 403)

        let list = try await harness.request("GET", "/v1/devices", as: laptop)
        #expect(list.json?["devices"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 2, 3])
    }

    @Test(arguments: StoreBackend.allCases) func anAccountHoldsAtMostTheDeviceLimit(backend: StoreBackend) async throws
    {
        let harness = try await MessengerHarness(backend: backend) { $0.maximumDevicesPerAccount = 3 }
        defer { harness.stop() }
        let phone = try await harness.register()
        _ = try await harness.link(to: phone)
        _ = try await harness.link(to: phone)
        let token = try await harness.request("POST", "/v1/devices/linking-token", as: phone)
        var body = try TestDevice(name: "fourth").registration.objectValue ?? [:]
        body["token"] = token.json?["token"] ?? .null
        let refused = try await harness.request("PUT", "/v1/devices/link", json: .object(body))
        #expect(refused.status == 411)
        #expect(refused.json?["code"] == "device_limit")
    }

    @Test(arguments: StoreBackend.allCases) func wrongCredentialsAre401ThenRateLimitedPerSource(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) {
            $0.failedAuthenticationRate = RateLimit(perSecond: 0.01, burst: 3)
        }
        defer { harness.stop() }
        let phone = try await harness.register()
        let impostor = try TestDevice(name: "impostor")
        impostor.accountId = phone.accountId
        impostor.deviceId = 1
        for _ in 0..<3 {
            let wrong = try await harness.request("GET", "/v1/devices", as: impostor)
            #expect(wrong.status == 401)
            #expect(wrong.json?["code"] == "unauthorized")
        }
        let limited = try await harness.request("GET", "/v1/devices", as: impostor)
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") != nil)
        // No credentials at all, and malformed ones.
        #expect(try await harness.request("GET", "/v1/devices").status == 401)
        // The source is limited: even the right password is refused until the budget refills.
        #expect(try await harness.request("GET", "/v1/devices", as: phone).status == 429)
        harness.clock.advance(by: .seconds(200))
        #expect(try await harness.request("GET", "/v1/devices", as: phone).status == 200)
    }

    /// Registrations have a budget for the whole server besides each address's: a client with
    /// many addresses is held by it.
    @Test func registrationsAreCappedForTheWholeServer() async throws {
        let harness = try await MessengerHarness(backend: .sqlite) {
            $0.registrationRate = nil
            $0.registrationRateOverall = RateLimit(perSecond: 0.01, burst: 2)
        }
        defer { harness.stop() }
        _ = try await harness.register()
        _ = try await harness.register()
        let device = try TestDevice(name: "third")
        let refused = try await harness.request("POST", "/v1/accounts", json: device.registration)
        #expect(refused.status == 429)
        #expect(refused.header("retry-after") != nil)
    }

    @Test(arguments: StoreBackend.allCases) func onlyTheFirstDeviceOrItselfRemovesADevice(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let phone = try await harness.register()
        let laptop = try await harness.link(to: phone)
        let tablet = try await harness.link(to: phone)
        #expect(try await harness.request("DELETE", "/v1/devices/3", as: laptop).status == 403)
        #expect(try await harness.request("DELETE", "/v1/devices/1", as: phone).status == 403)
        #expect(try await harness.request("DELETE", "/v1/devices/3", as: phone).status == 204)
        // The removed device's credentials no longer work.
        #expect(try await harness.request("GET", "/v1/devices", as: tablet).status == 401)
        #expect(try await harness.request("DELETE", "/v1/devices/2", as: laptop).status == 204)
        #expect(try await harness.request("DELETE", "/v1/devices/2", as: phone).status == 404)
    }

    @Test(arguments: StoreBackend.allCases) func malformedRegistrationsAreClear400s(backend: StoreBackend) async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let notJSON = try await harness.request("POST", "/v1/accounts", body: Array("{\"password\":".utf8))
        #expect(notJSON.status == 400)
        #expect(notJSON.json?["message"]?.stringValue?.contains("not valid JSON") == true)
        let short = try await harness.request(
            "POST", "/v1/accounts", json: ["password": "short", "registrationId": 5])
        #expect(short.status == 400)
        let badId = try await harness.request(
            "POST", "/v1/accounts", json: ["password": .string(String(repeating: "x", count: 32)), "registrationId": 0])
        #expect(badId.status == 400)
        #expect(badId.json?["code"] == "bad_request")
    }
}
