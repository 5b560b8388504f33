import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite struct MessageRoutingTests {
    @Test(arguments: StoreBackend.allCases) func theDeviceListIsCheckedAndNothingIsStoredUnlessItMatches(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let bobLaptop = try await harness.link(to: bob)

        let missing = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(missing.status == 409)
        #expect(missing.json?["missingDevices"] == [2])
        #expect(missing.json?["extraDevices"] == [])

        let extra = try await harness.send(
            from: alice, to: bob.accountId,
            devices: [(1, bob.registrationId), (2, bobLaptop.registrationId), (3, 1234)])
        #expect(extra.status == 409)
        #expect(extra.json?["extraDevices"] == [3])

        let stale = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId), (2, bobLaptop.registrationId + 1)])
        #expect(stale.status == 410)
        #expect(stale.json?["staleDevices"] == [2])

        for device in [bob, bobLaptop] {
            let pending = try await harness.request("GET", "/v1/messages", as: device)
            #expect(pending.json?["messages"] == [], "a refused send stored something")
        }
        let unknown = try await harness.send(from: alice, to: "no-such-account", devices: [(1, 1)])
        #expect(unknown.status == 404)

        let accepted = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId), (2, bobLaptop.registrationId)])
        #expect(accepted.status == 200)
        #expect(accepted.json?["serverSeq"] == 1)
        for device in [bob, bobLaptop] {
            let pending = try await harness.request("GET", "/v1/messages", as: device)
            let envelope = pending.json?["messages"]?.arrayValue?.first?["envelope"]
            #expect(envelope?["sourceAccount"]?.stringValue == alice.accountId)
            #expect(envelope?["sourceDevice"] == 1)
            #expect(envelope?["destinationDevice"]?.intValue == Int64(device.deviceId))
            #expect(envelope?["serverSeq"] == 1)
            #expect(
                envelope?["content"]?.stringValue.flatMap(Base64.decode).map { String(decoding: $0, as: UTF8.self) }
                    == "sealed for \(device.deviceId)")
        }
    }

    @Test(arguments: StoreBackend.allCases) func aRetriedSendStoresNothingNewAndTheSendersOtherDevicesShareItsNumber(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let aliceLaptop = try await harness.link(to: alice)
        let bob = try await harness.register()
        let id = UUID().uuidString
        let first = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], clientMessageId: id)
        let retry = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], clientMessageId: id)
        #expect(first.json?["serverSeq"] == 1)
        #expect(retry.json?["serverSeq"] == 1)
        #expect(retry.json?["duplicate"] == true)
        // The copy for Alice's laptop is the same message: the same number. Her own sending
        // device is not addressed (naming it is an extra device).
        let ownWithSelf = try await harness.send(
            from: alice, to: alice.accountId, devices: [(1, alice.registrationId), (2, aliceLaptop.registrationId)],
            clientMessageId: id)
        #expect(ownWithSelf.status == 409)
        #expect(ownWithSelf.json?["extraDevices"] == [1])
        let own = try await harness.send(
            from: alice, to: alice.accountId, devices: [(2, aliceLaptop.registrationId)], clientMessageId: id)
        #expect(own.json?["serverSeq"] == 1)
        #expect(own.json?["duplicate"] == false)
        let next = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(next.json?["serverSeq"] == 2)
        let other = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], conversationId: "conversation-2")
        #expect(other.json?["serverSeq"] == 1)
        let pending = try await harness.request("GET", "/v1/messages", as: bob)
        #expect(pending.json?["messages"]?.arrayValue?.count == 3)
    }

    /// Sends that arrive together share a commit (group commit): each still gets its own number,
    /// and a retry racing its original is still recognised.
    @Test(arguments: StoreBackend.allCases) func concurrentSendsAndRacingRetriesGetDistinctNumbersOnce(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.sendRate = nil }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let ids = (0..<40).map { _ in UUID().uuidString }
        let answers = try await withThrowingTaskGroup(of: (String, Int64?, Bool?).self) { group in
            for id in ids + ids {
                group.addTask {
                    let answer = try await harness.send(
                        from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], clientMessageId: id)
                    return (id, answer.json?["serverSeq"]?.intValue, answer.json?["duplicate"]?.boolValue)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0.1 != nil })
        let byId = Dictionary(grouping: answers, by: \.0)
        #expect(byId.values.allSatisfy { Set($0.map(\.1)).count == 1 }, "a retry got another number")
        #expect(byId.values.allSatisfy { $0.filter { $0.2 == true }.count == 1 }, "not exactly one duplicate per pair")
        #expect(Set(answers.compactMap(\.1)) == Set(1...40))
        let stored = try harness.store.mailbox(accountId: bob.accountId, deviceId: 1, afterId: 0, limit: 1_000)
        #expect(stored.count == 40)
    }

    @Test(arguments: StoreBackend.allCases) func oversizedMalformedAndTooFrequentSendsAreRefused(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend) {
            $0.maximumMessageBytes = 1_000
            $0.sendRate = RateLimit(perSecond: 0.01, burst: 2)
        }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let big = try await harness.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)],
            content: String(repeating: "x", count: 1_200))
        #expect(big.status == 413)
        let malformed = try await harness.request(
            "PUT", "/v1/messages/\(bob.accountId)", as: alice, body: Array("{\"messages\": [".utf8))
        #expect(malformed.status == 400)
        let limited = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        #expect(limited.status == 429)
        #expect(limited.header("retry-after") != nil)
        #expect(try await harness.request("GET", "/v1/messages", as: bob).json?["messages"] == [])
    }

    @Test(arguments: StoreBackend.allCases) func catchUpPagesWithACursorAndExpiryDeletesOldEnvelopes(
        backend: StoreBackend
    ) async throws {
        let harness = try await MessengerHarness(backend: backend) { $0.sendRate = nil }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        for index in 0..<25 {
            let sent = try await harness.send(
                from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "m\(index)")
            #expect(sent.status == 200)
        }
        var cursor: Int64 = 0
        var contents: [String] = []
        var pages = 0
        while true {
            let page = try await harness.request("GET", "/v1/messages?after=\(cursor)&limit=10", as: bob)
            pages += 1
            for item in page.json?["messages"]?.arrayValue ?? [] {
                contents += [
                    item["envelope"]?["content"]?.stringValue.flatMap(Base64.decode).map {
                        String(decoding: $0, as: UTF8.self)
                    } ?? ""
                ]
            }
            cursor = page.json?["cursor"]?.intValue ?? cursor
            if page.json?["more"] != true { break }
        }
        #expect(pages == 3)
        #expect(contents == (0..<25).map { "m\($0) for 1" })

        harness.clock.advance(by: .seconds(29 * 86_400))
        #expect(try harness.messenger.expire().envelopes == 0)
        harness.clock.advance(by: .seconds(2 * 86_400))
        #expect(try harness.messenger.expire().envelopes == 25)
        #expect(try await harness.request("GET", "/v1/messages", as: bob).json?["messages"] == [])
    }

    @Test(arguments: StoreBackend.allCases) func anAcknowledgementOverHTTPDeletesOneEnvelope(backend: StoreBackend)
        async throws
    {
        let harness = try await MessengerHarness(backend: backend)
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        _ = try await harness.send(from: alice, to: bob.accountId, devices: [(1, bob.registrationId)])
        let pending = try await harness.request("GET", "/v1/messages", as: bob)
        let id = try #require(pending.json?["messages"]?.arrayValue?.first?["id"]?.intValue)
        // Another account cannot delete it.
        #expect(try await harness.request("DELETE", "/v1/messages/\(id)", as: alice).status == 404)
        #expect(try await harness.request("DELETE", "/v1/messages/\(id)", as: bob).status == 204)
        #expect(try await harness.request("GET", "/v1/messages", as: bob).json?["messages"] == [])
    }
}
