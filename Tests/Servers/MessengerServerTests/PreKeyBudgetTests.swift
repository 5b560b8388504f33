import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

/// Draining a victim's one-time prekeys: a budget per target account, and accounts that cost
/// more than a loop.
@Suite(.timeLimit(.minutes(2))) struct PreKeyBudgetTests {
    @Test(arguments: StoreBackend.allCases) func freshAccountsCannotDrainAVictimsOneTimePreKeys(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) { $0.registrationRate = nil }
        defer { harness.stop() }
        let victim = try await harness.register(name: "victim")
        try await harness.uploadKeys(victim, preKeys: 100)
        var attackers: [TestDevice] = []
        for index in 0..<4 { attackers.append(try await harness.register(name: "attacker \(index)")) }
        var withPreKey = 0
        var withoutPreKey = 0
        for attacker in attackers {
            for _ in 0..<50 {
                let bundle = try await harness.request("GET", "/v2/keys/\(victim.accountId)/1", as: attacker)
                guard bundle.status == 200 else { continue }
                let device = try #require(bundle.json?["devices"]?.arrayValue?.first)
                // Beyond the budget a bundle still carries the signed prekey: a session can start.
                #expect(device["signedPreKey"]?["keyId"] == 7)
                if device["preKey"] != nil { withPreKey += 1 } else { withoutPreKey += 1 }
            }
        }
        let left = try #require(try await harness.request("GET", "/v2/keys", as: victim).json?["count"]?.intValue)
        #expect(left >= 50, "the victim has \(left) one-time prekeys left")
        #expect(withPreKey == 100 - Int(left))
        #expect(withoutPreKey > 0)
    }

    @Test(arguments: StoreBackend.allCases) func theBudgetRefillsWithTime(backend: StoreBackend) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.registrationRate = nil }
        defer { harness.stop() }
        let victim = try await harness.register(name: "victim")
        try await harness.uploadKeys(victim, preKeys: 100)
        let friend = try await harness.register(name: "friend")
        var handedOut = 0
        while true {
            let bundle = try await harness.request("GET", "/v2/keys/\(victim.accountId)/1", as: friend)
            try #require(bundle.status == 200)
            guard bundle.json?["devices"]?.arrayValue?.first?["preKey"] != nil else { break }
            handedOut += 1
            try #require(handedOut < 100, "no budget per target")
        }
        harness.clock.advance(by: .seconds(3_600))
        let later = try await harness.request("GET", "/v2/keys/\(victim.accountId)/1", as: friend)
        #expect(later.json?["devices"]?.arrayValue?.first?["preKey"] != nil)
    }

    @Test(arguments: StoreBackend.allCases) func theBudgetIsKeptOnlyForAccountsThatExistAndHasABound(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend) {
            $0.preKeyFetchRate = nil
            $0.maximumPreKeyBudgetAccounts = 2
        }
        defer { harness.stop() }
        let caller = try await harness.register(name: "caller")
        // Long made-up account names: 404, and nothing is remembered for them.
        for index in 0..<50 {
            let made = String(repeating: "\(index % 10)", count: 4_000)
            #expect(try await harness.request("GET", "/v2/keys/\(made)/1", as: caller).status == 404)
        }
        #expect(harness.messenger.preKeyBudgetAccounts == 0)
        var targets: [TestDevice] = []
        for index in 0..<3 {
            let target = try await harness.register(name: "target \(index)")
            try await harness.uploadKeys(target, preKeys: 5)
            targets.append(target)
        }
        for target in targets {
            #expect(try await harness.request("GET", "/v2/keys/\(target.accountId)/1", as: caller).status == 200)
            #expect(harness.messenger.preKeyBudgetAccounts <= 2)
        }
    }

    @Test(arguments: StoreBackend.allCases) func accountCreationIsLimitedPerAddress(backend: StoreBackend) async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        var statuses: [Int] = []
        for index in 0..<30 {
            let device = try TestDevice(name: "bot \(index)")
            statuses.append(try await harness.request("POST", "/v1/accounts", json: device.registration).status)
        }
        let created = statuses.filter { $0 == 200 }.count
        #expect(created <= 10, "\(created) accounts from one address at once")
        #expect(statuses.last == 429)
    }
}
